// The box office's tours, the confirmation steps of reopening and accepting, the day sheet's
// order list and the channels as people call them.
export const de: Record<string, string> = {
  'desk.tours': 'Führungen',
  'desk.tour.start': 'Beginn {title}',
  'desk.tour.language': 'Sprache {title}',
  'desk.tour.persons': '{min}–{max} Personen',
  'desk.tour.group': 'pro Gruppe',
  'desk.error.tourstart': 'Bitte für „{title}“ einen freien Beginn wählen.',
  'desk.error.tourlanguage': 'Bitte für „{title}“ eine angebotene Sprache wählen.',
  'closure.reopen.confirm.title': 'Zeitraum wieder öffnen?',
  'closure.reopen.confirm.text': 'Die Schließung {period} ({reason}) wird aufgehoben; der Zeitraum ist sofort wieder buchbar, auch online und für Partner. Stornierte Bestellungen bleiben storniert.',
  'closure.reopen.confirm.button': 'Ja, wieder öffnen',
  'requests.accept.confirm.title': 'Anfrage {id} annehmen?',
  'requests.accept.confirm.text': 'Für {contact} wird eine Bestellung gebucht: {participants} Teilnehmende am {date}, {tours}. Die Anfrage gilt danach als angenommen.',
  'requests.accept.confirm.button': 'Ja, annehmen und buchen',
};

export const en: Record<string, string> = {
  'desk.tours': 'Tours',
  'desk.tour.start': 'Start {title}',
  'desk.tour.language': 'Language {title}',
  'desk.tour.persons': '{min}–{max} people',
  'desk.tour.group': 'per group',
  'desk.error.tourstart': 'Choose a free start for “{title}”.',
  'desk.error.tourlanguage': 'Choose a language “{title}” is given in.',
  'closure.reopen.confirm.title': 'Reopen the period?',
  'closure.reopen.confirm.text': 'The closure {period} ({reason}) is lifted; the period can be booked again at once, online and by partners too. Cancelled orders stay cancelled.',
  'closure.reopen.confirm.button': 'Yes, reopen',
  'requests.accept.confirm.title': 'Accept request {id}?',
  'requests.accept.confirm.text': 'An order is booked for {contact}: {participants} participants on {date}, {tours}. The request then counts as accepted.',
  'requests.accept.confirm.button': 'Yes, accept and book',
};
