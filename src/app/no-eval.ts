// Imported first by the browser entry, before any zod schema is built: zod probes for eval (`Function('')`) when
// it builds an object schema, to compile a fast parser. The server's Content-Security-Policy forbids eval, and
// the probe alone is reported as a violation. The client parses little, so it does without compiled parsers.
import { z } from 'zod';

z.config({ jitless: true });
