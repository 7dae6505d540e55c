// Strings of the set-password page (a link from an admin's reset or a new sign-in) and of the
// sign-in notice after it. Same keys in both languages.
export const de: Record<string, string> = {
  'setpw.title': 'Passwort festlegen',
  'setpw.intro': 'Legen Sie das Passwort für {email} fest. Es muss mindestens {min} Zeichen haben. Danach melden Sie sich damit an; alle bisherigen Anmeldungen enden.',
  'setpw.new': 'Neues Passwort',
  'setpw.repeat': 'Neues Passwort wiederholen',
  'setpw.submit': 'Passwort speichern',
  'setpw.invalid.title': 'Link nicht gültig',
  'setpw.invalid': 'Dieser Link gilt nicht (mehr): Er wurde schon benutzt, ist abgelaufen, wurde durch einen neueren ersetzt oder ist unvollständig. Es wurde nichts geändert. Bitten Sie die Verwaltung um einen neuen Link.',
  'setpw.tologin': 'Zur Anmeldung',
  'setpw.error.mismatch': 'Die beiden Eingaben stimmen nicht überein. Das Passwort ist nicht geändert.',
  'setpw.error.short': 'Das Passwort muss mindestens {min} Zeichen haben. Es ist nicht geändert.',
  'setpw.error.long': 'Das Passwort darf höchstens 256 Zeichen haben. Es ist nicht geändert.',
  'setpw.throttled': 'Zu viele Versuche von dieser Adresse. Bitte versuchen Sie es in 15 Minuten noch einmal.',
  'notice.passwordset': 'Ihr Passwort ist gespeichert. Bitte melden Sie sich damit an.',
};

export const en: Record<string, string> = {
  'setpw.title': 'Set your password',
  'setpw.intro': 'Set the password for {email}. It must have at least {min} characters. Then sign in with it; every earlier sign-in ends.',
  'setpw.new': 'New password',
  'setpw.repeat': 'Repeat the new password',
  'setpw.submit': 'Save password',
  'setpw.invalid.title': 'Link not valid',
  'setpw.invalid': 'This link does not work (any more): it has been used, has expired, has been replaced by a newer one or is incomplete. Nothing was changed. Please ask an administrator for a new link.',
  'setpw.tologin': 'To sign-in',
  'setpw.error.mismatch': 'The two entries do not match. The password has not been changed.',
  'setpw.error.short': 'The password must have at least {min} characters. It has not been changed.',
  'setpw.error.long': 'The password may have at most 256 characters. It has not been changed.',
  'setpw.throttled': 'Too many attempts from this address. Please try again in 15 minutes.',
  'notice.passwordset': 'Your password has been saved. Please sign in with it.',
};
