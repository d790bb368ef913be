// Link previews (server/previews/): the sender takes a card off their message.
// Each route's method and path are in ./previews.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id } from '../entities';
import { previewsRoutes } from './previews.routes';
import { Ok, withSchemas } from './with-schemas';

/** «Убрать предпросмотр»: the sender takes the link card off their message, for everyone. */
export const RemovePreviewBody = z.strictObject({ messageId: Id });

/** The routes of ./previews.routes with their schemas. */
export const previewsApi = withSchemas(previewsRoutes, {
  removePreview: { body: RemovePreviewBody, response: Ok },
});
