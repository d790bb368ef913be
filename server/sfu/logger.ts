// The SFU logs through whatever the host gives it (pino in `npm start`); tests pass nothing.
export interface SfuLogger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

const noop = () => {};
export const silentLogger: SfuLogger = { debug: noop, info: noop, warn: noop, error: noop };
