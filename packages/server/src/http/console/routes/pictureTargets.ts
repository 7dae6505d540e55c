// The records a picture can be attached to, for the picture page's picker: the first 100 of each
// kind the user can see, through the catalogue's list verbs (so museum scope and visibility are
// theirs), titled in the user's language, marked when they already have a picture.
import type { StaffCtx } from '../../../domain/staff/principal.ts';
import { listEvents } from '../../../domain/catalog/listEvents.ts';
import { listExhibitions } from '../../../domain/catalog/listExhibitions.ts';
import { listMuseums } from '../../../domain/catalog/listMuseums.ts';
import { listTickets } from '../../../domain/catalog/listTickets.ts';
import { listTours } from '../../../domain/catalog/listTours.ts';

export interface PictureTarget { id: number; title: string; hasPicture: boolean }
export type PictureTargets = Record<'museum' | 'exhibition' | 'ticket' | 'event' | 'tour', PictureTarget[]>;

export const PICKER_SIZE = 100;

export async function pictureTargets(ctx: StaffCtx, locale: string): Promise<PictureTargets> {
  const input = { page: 1, per_page: PICKER_SIZE, locale };
  const [museum, exhibition, ticket, event, tour] = await Promise.all([
    listMuseums(ctx, input), listExhibitions(ctx, input), listTickets(ctx, input), listEvents(ctx, input), listTours(ctx, input),
  ]);
  const of = (p: { items: Array<Record<string, unknown>> }) => p.items.map((v) => ({
    id: v.id as number,
    title: typeof v.title === 'string' ? v.title : String(v.id),
    hasPicture: v.picture !== null && v.picture !== undefined,
  }));
  return { museum: of(museum), exhibition: of(exhibition), ticket: of(ticket), event: of(event), tour: of(tour) };
}
