// A setting the server cannot start with: `npm start` and `npm run admin` print its message, in Russian and naming
// the variable, with no stack trace (server/startup.ts).
export class ConfigError extends Error {
  override name = 'ConfigError';
}
