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
};

export const en: Record<string, string> = {
  'desk.tours': 'Tours',
  'desk.tour.start': 'Start {title}',
  'desk.tour.language': 'Language {title}',
  'desk.tour.persons': '{min}–{max} people',
  'desk.tour.group': 'per group',
  'desk.error.tourstart': 'Choose a free start for “{title}”.',
  'desk.error.tourlanguage': 'Choose a language “{title}” is given in.',
};
