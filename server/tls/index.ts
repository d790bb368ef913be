// HTTPS without a proxy in front (docs/administration.md «HTTPS»): with PUBLIC_URL=https://… the server gets its
// certificate over ACME and renews it 30 days before it expires; with TLS_CERT/TLS_KEY it serves the operator's
// files and reloads them when they change. Either way a certificate that cannot be renewed or reloaded leaves the
// server up on the last good one, with a log line that says why; only a start with no certificate at all fails.
// Messages for the operator are Russian, as the product is.
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { type Clock, type ClockTimer, systemClock } from '../clock';
import type { Config, TlsSettings } from '../config';
import { type Challenges, newAccountKey, orderCertificate } from './acme';
import { type HttpPort, startHttpPort } from './http-port';

export interface TlsLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface KeyPair {
  key: string;
  cert: string;
}

/** A start that cannot serve HTTPS at all: main.ts prints the message and exits. */
export class TlsStartError extends Error {}

export interface Tls {
  /** The key and certificate to serve now. */
  current(): KeyPair;
  /** When the served certificate stops being valid. */
  notAfter(): Date;
  /** Called with each new key and certificate (https.Server#setSecureContext). */
  onChange(listener: (pair: KeyPair) => void): void;
  /** ACME: renews when due. Files: reloads when they changed. Runs on its own timer too; tests call it. */
  check(): Promise<void>;
  /** The plain-HTTP port's real number (challenges and redirects), or null when it is not served. */
  httpPort(): number | null;
  close(): Promise<void>;
}

export interface TlsOptions {
  log: TlsLog;
  clock?: Clock;
  /** How often the files of TLS_CERT/TLS_KEY are looked at (ms). */
  watchIntervalMs?: number;
}

/** Renew this long before the certificate expires (as Let's Encrypt advises for 90-day certificates). */
export const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;
/** How often the certificate's age is looked at. */
export const CHECK_EVERY_MS = 12 * 3600 * 1000;
/** After a failed renewal, the next try. */
export const RETRY_AFTER_MS = 3600 * 1000;

const fmtDate = (d: Date) => d.toISOString().slice(0, 10);

/** Throws with the reason when the pair cannot serve (unreadable PEM, a key of another certificate). */
function validate(pair: KeyPair): Date {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(pair.cert);
  } catch (err) {
    throw new Error(`сертификат не читается (${(err as Error).message})`);
  }
  try {
    createSecureContext({ key: pair.key, cert: pair.cert });
  } catch (err) {
    const m = (err as Error).message;
    throw new Error(/mismatch/i.test(m) ? 'ключ не подходит к сертификату' : `ключ не читается (${m})`);
  }
  return new Date(x509.validTo);
}

function listenProblem(err: unknown, port: number): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `порт ${port} занят другой программой`;
  if (code === 'EACCES') {
    return `нет прав открыть порт ${port} (запустите от root или дайте права: setcap cap_net_bind_service=+ep $(which node), либо AmbientCapabilities=CAP_NET_BIND_SERVICE в systemd)`;
  }
  return `порт ${port} не открывается (${(err as Error).message})`;
}

export async function startTls(config: Config, options: TlsOptions): Promise<Tls | null> {
  const settings = config.tls;
  if (settings.mode === 'off') return null;
  const clock = options.clock ?? systemClock;
  const listeners: ((pair: KeyPair) => void)[] = [];
  let pair: KeyPair | null = null;
  let expires = new Date(0);
  let timer: ClockTimer | null = null;
  let closed = false;
  const use = (next: KeyPair, notAfter: Date) => {
    pair = next;
    expires = notAfter;
    for (const l of listeners) l(next);
  };

  let checkNow: () => Promise<number>;
  let httpPort: HttpPort | null = null;
  let openHttpPort: () => Promise<string | null> = async () => null;

  if (settings.mode === 'files') {
    const reload = await filesMode(
      settings,
      (p, d) => use(p, d),
      options.log,
      () => pair,
    );
    // The files' own cadence, not the certificate's age, is what a reload waits for.
    const every = options.watchIntervalMs ?? 10_000;
    checkNow = async () => {
      await reload();
      return every;
    };
    if (settings.httpPort !== null) {
      const port = settings.httpPort;
      openHttpPort = async () => {
        try {
          httpPort = await startHttpPort({
            port,
            host: config.host,
            challenges: new Map(),
            publicOrigin: config.publicUrl,
            httpsPort: config.port,
          });
          return null;
        } catch (err) {
          return listenProblem(err, port);
        }
      };
      const problem = await openHttpPort();
      if (problem) options.log.warn(`HTTP_PORT: ${problem}; переадресации с http:// на https:// нет`);
    }
  } else {
    const challenges: Challenges = new Map();
    const port = settings.httpPort;
    openHttpPort = async () => {
      if (httpPort) return null;
      try {
        httpPort = await startHttpPort({
          port,
          host: config.host,
          challenges,
          publicOrigin: config.publicUrl,
          httpsPort: config.port,
        });
        return null;
      } catch (err) {
        return listenProblem(err, port);
      }
    };
    const acmeMode = await acmeSetup(config.dataDir, settings, challenges, clock, options.log, openHttpPort);
    try {
      const started = await acmeMode.start();
      use(started.pair, started.notAfter);
    } catch (err) {
      // A start that fails leaves nothing listening.
      await (httpPort as HttpPort | null)?.close();
      throw err;
    }
    checkNow = async () => {
      const renewed = await acmeMode.renewIfDue(expires);
      if (renewed && renewed !== 'failed') use(renewed.pair, renewed.notAfter);
      return renewed === 'failed' ? RETRY_AFTER_MS : CHECK_EVERY_MS;
    };
  }

  const schedule = (ms: number) => {
    if (closed) return;
    timer = clock.setTimeout(() => {
      checkNow().then(schedule, (err: unknown) => {
        options.log.error(`Проверка сертификата не удалась: ${(err as Error).message}`);
        schedule(RETRY_AFTER_MS);
      });
    }, ms);
    timer.unref();
  };
  schedule(settings.mode === 'files' ? (options.watchIntervalMs ?? 10_000) : CHECK_EVERY_MS);

  return {
    current: () => pair as KeyPair,
    notAfter: () => expires,
    onChange: (l) => listeners.push(l),
    check: async () => {
      await checkNow();
    },
    httpPort: () => (httpPort as HttpPort | null)?.port ?? null,
    close: async () => {
      closed = true;
      clock.clearTimeout(timer);
      await (httpPort as HttpPort | null)?.close();
    },
  };
}

/** TLS_CERT/TLS_KEY: read and checked now (a bad pair stops the start); later changes are reloaded when good. */
async function filesMode(
  s: Extract<TlsSettings, { mode: 'files' }>,
  use: (pair: KeyPair, notAfter: Date) => void,
  log: TlsLog,
  current: () => KeyPair | null,
): Promise<() => Promise<void>> {
  const read = (): KeyPair => ({ cert: fs.readFileSync(s.certFile, 'utf8'), key: fs.readFileSync(s.keyFile, 'utf8') });
  let first: KeyPair;
  try {
    first = read();
  } catch (err) {
    throw new TlsStartError(`TLS_CERT/TLS_KEY не читаются: ${(err as Error).message}`);
  }
  try {
    use(first, validate(first));
  } catch (err) {
    throw new TlsStartError(`TLS_CERT/TLS_KEY не годятся: ${(err as Error).message} (${s.certFile}, ${s.keyFile})`);
  }
  return async () => {
    let next: KeyPair;
    try {
      next = read();
    } catch (err) {
      log.error(`TLS_CERT/TLS_KEY не читаются: ${(err as Error).message}; работаю на прежнем сертификате`);
      return;
    }
    const now = current();
    if (now && now.cert === next.cert && now.key === next.key) return;
    try {
      const notAfter = validate(next);
      use(next, notAfter);
      log.info(`Сертификат из TLS_CERT перечитан (действует до ${fmtDate(notAfter)})`);
    } catch (err) {
      // certbot writes the certificate and the key one after the other: a half-written pair is tried again.
      log.error(`Новые TLS_CERT/TLS_KEY не годятся: ${(err as Error).message}; работаю на прежнем сертификате`);
    }
  };
}

/** ACME: the account key, the last certificate and its key kept in DATA_DIR/tls (0600). */
async function acmeSetup(
  dataDir: string,
  s: Extract<TlsSettings, { mode: 'acme' }>,
  challenges: Challenges,
  clock: Clock,
  log: TlsLog,
  openHttpPort: () => Promise<string | null>,
) {
  const dir = path.join(dataDir, 'tls');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (name: string) => path.join(dir, name);
  const write = (name: string, text: string) => {
    const tmp = `${file(name)}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file(name));
  };
  const readOr = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : null);
  const certName = `${s.domain}.crt`;
  const keyName = `${s.domain}.key`;

  let accountKey = readOr('acme-account.key');
  if (!accountKey) {
    accountKey = await newAccountKey();
    write('acme-account.key', accountKey);
  }

  const stored = (): { pair: KeyPair; notAfter: Date } | null => {
    const cert = readOr(certName);
    const key = readOr(keyName);
    if (!cert || !key) return null;
    try {
      return { pair: { cert, key }, notAfter: validate({ cert, key }) };
    } catch (err) {
      log.warn(`Сохранённый сертификат для ${s.domain} не годится (${(err as Error).message}); заказываю новый`);
      return null;
    }
  };

  const order = async (): Promise<{ pair: KeyPair; notAfter: Date }> => {
    const portProblem = await openHttpPort();
    if (portProblem) throw new Error(`${portProblem}, а удостоверяющий центр проверяет домен по http://${s.domain}/`);
    const { accountUrl, ...pair } = await orderCertificate({
      directoryUrl: s.directoryUrl,
      domain: s.domain,
      email: s.email,
      accountKey: accountKey as string,
      // An account is the CA's: another directory (a switch from staging) registers anew.
      accountUrl: readOr('acme-account.url')?.startsWith(new URL(s.directoryUrl).origin)
        ? readOr('acme-account.url')
        : null,
      challenges,
    });
    write('acme-account.url', accountUrl);
    const notAfter = validate(pair);
    // The key first: a crash between the two writes leaves a stored pair that does not match, which is re-ordered.
    write(keyName, pair.key);
    write(certName, pair.cert);
    log.info(`Получен сертификат для ${s.domain} у ${s.directoryUrl} (действует до ${fmtDate(notAfter)})`);
    return { pair, notAfter };
  };

  const due = (notAfter: Date) => notAfter.getTime() - clock.now() <= RENEW_BEFORE_MS;

  return {
    async start(): Promise<{ pair: KeyPair; notAfter: Date }> {
      const have = stored();
      if (have && !due(have.notAfter)) {
        // Renewals need the port too; without it the server still starts on what it has.
        const problem = await openHttpPort();
        if (problem) log.warn(`HTTP_PORT: ${problem}; сертификат не продлится, пока порт не откроется`);
        log.info(`Сертификат для ${s.domain} из ${dir} (действует до ${fmtDate(have.notAfter)})`);
        return have;
      }
      try {
        return await order();
      } catch (err) {
        const reason = (err as Error).message;
        if (have && have.notAfter.getTime() > clock.now()) {
          log.error(
            `Сертификат для ${s.domain} не продлён: ${reason}; работаю на прежнем (действует до ${fmtDate(have.notAfter)}), повторю через час`,
          );
          return have;
        }
        throw new TlsStartError(
          `Не получить сертификат для ${s.domain} у ${s.directoryUrl}: ${reason}. Нужны: DNS-запись ${s.domain} на этот сервер и открытый порт ${s.httpPort} (HTTP_PORT) для проверки.`,
        );
      }
    },
    /** The renewed pair, null when not yet due, 'failed' when the CA did not renew it. */
    async renewIfDue(notAfter: Date): Promise<{ pair: KeyPair; notAfter: Date } | null | 'failed'> {
      if (!due(notAfter)) return null;
      try {
        return await order();
      } catch (err) {
        log.error(
          `Сертификат для ${s.domain} не продлён: ${(err as Error).message}; работаю на прежнем (действует до ${fmtDate(notAfter)}), повторю через час`,
        );
        return 'failed';
      }
    },
  };
}
