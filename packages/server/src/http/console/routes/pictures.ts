// Picture upload for museums, exhibitions, tickets, events and tours (managers and admins): the
// form posts multipart/form-data with the CSRF token as a field; the existing media verb checks
// and stores the picture (type by content, size, pixel limit, scope), and the change is audited.
// The multipart parser is registered in this module only, so every other console form still
// takes url-encoded bodies alone. The size limit is the verb's: the parser keeps one byte more
// than allowed without failing, so an oversized file reaches the verb and is refused on the form.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { DomainError } from '../../../domain/errors.ts';
import { getMedia } from '../../../domain/media/manageMedia.ts';
import { TARGET_TYPES, uploadMedia } from '../../../domain/media/uploadMedia.ts';
import { STATUS } from '../../status.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { domainMessage } from './errors.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { PICKER_SIZE, pictureTargets } from './pictureTargets.ts';
import { renderPage, seeOther } from './render.ts';

/** Refusals shown on the form; anything else (a record outside the user's museums) is the error page. */
const ON_FORM = new Set(['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'STORAGE_QUOTA_EXCEEDED']);
const TEXT_MAX = 2000;

interface PictureForm { target_type: string; target_id: string; title: string; description: string; copyright_info: string }

/**
 * The form's fields. The record comes from the picker (`target`, "ticket:12") or, for records
 * beyond the picker's first hundred and for links into the page, from `target_type` and `target_id`.
 */
function formOf(body: unknown): PictureForm {
  // One character more than the verb allows, so that it refuses instead of the form truncating.
  const text = (name: string) => field(body, name, TEXT_MAX + 1);
  const picked = /^([a-z]{1,20}):(\d{1,12})$/.exec(field(body, 'target', 40));
  const byNumber = field(body, 'target_id', 12) !== '' || !picked;
  return {
    target_type: byNumber ? field(body, 'target_type', 20) : picked[1]!,
    target_id: byNumber ? field(body, 'target_id', 12) : picked[2]!,
    title: text('title'), description: text('description'), copyright_info: text('copyright_info'),
  };
}

export const picturePages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  await app.register(fastifyMultipart, {
    attachFieldsToBody: 'keyValues',
    throwFileSizeLimit: false,
    limits: { fileSize: deps.config.mediaMaxBytes + 1, files: 1, fields: 10, fieldSize: 8 * 1024, parts: 12 },
  });
  const maxMb = Math.round((deps.config.mediaMaxBytes / 1024 / 1024) * 10) / 10;

  const page = async (req: FastifyRequest, reply: FastifyReply, form: PictureForm, problems: string[] = [], status = 200) => {
    const t = translator(req.consoleLocale);
    const mediaId = intParam((req.query as Record<string, unknown> | undefined)?.media);
    const saved = status === 200 && mediaId !== null ? await getMedia(req.staffCtx, mediaId).catch(() => null) : null;
    const targets = await pictureTargets(req.staffCtx, req.consoleLocale);
    return renderPage(req, reply, 'pictures/index', { title: t('pictures.title'), form, problems, saved, types: TARGET_TYPES, targets, pickerSize: PICKER_SIZE, maxMb }, status);
  };

  consoleRoute(app, { method: 'GET', url: '/pictures', action: 'catalog.pictures' }, async (req, reply) => {
    const q = req.query as Record<string, unknown> | undefined;
    return page(req, reply, { ...formOf({}), target_type: field(q, 'target_type', 20), target_id: field(q, 'target_id', 12) });
  });

  consoleRoute(app, { method: 'POST', url: '/pictures', action: 'catalog.pictures' }, async (req, reply) => {
    const t = translator(req.consoleLocale);
    const form = formOf(req.body);
    const file = (req.body as Record<string, unknown> | undefined)?.file;
    if (form.target_id === '') return page(req, reply, form, [t('pictures.error.notarget')], 422);
    if (!Buffer.isBuffer(file) || file.length === 0) return page(req, reply, form, [t('pictures.error.nofile')], 422);
    try {
      const media = await audited(req.staffCtx, (ctx) => uploadMedia(ctx, {
        target_type: form.target_type,
        target_id: intParam(form.target_id) ?? 0,
        title: form.title, description: form.description, copyright_info: form.copyright_info,
        bytes: file,
      }), (m) => ({
        action: 'media.upload', entityType: 'media', entityId: m.id, museumId: m.museum_id,
        after: { target_type: m.target_type, target_id: m.target_id, title: m.title, copyright_info: m.copyright_info, content_type: m.content_type, byte_size: m.byte_size },
      }));
      return seeOther(reply, `/console/pictures?media=${media.id}`, 'picturesaved');
    } catch (err) {
      if (!(err instanceof DomainError) || !ON_FORM.has(err.code)) throw err;
      const problems = err.reason !== undefined
        ? [t(`pictures.error.${err.reason}`, { mb: String(maxMb) })]
        : (({ message, details }) => [message, ...details])(domainMessage(req, err));
      return page(req, reply, form, problems, STATUS[err.code]);
    }
  });
};
