// Runtime configuration from the environment. Every option has an embedded default so `npm start`
// needs no external service; README's configuration table mirrors this file.
import { ConfigError } from './config-error';
import path from 'node:path';
import { LIMITS } from '../src/contract/limits';
import { type BackupSchedule, type KeepRule, parseKeep, parseSchedule } from './backups/schedule';
import { PROXY_RANGE_NAMES, proxyTrust } from './net/client-address';

export interface Config {
  port: number;
  host: string;
  /**
   * The address people open (PUBLIC_URL, an origin such as https://chat.example.org); null when unset. With https
   * the server serves TLS itself (tls below); the client names it where a feature needs a secure context.
   */
  publicUrl: string | null;
  tls: TlsSettings;
  dataDir: string;
  /** postgres://… selects PostgreSQL; unset means a SQLite file in dataDir. */
  databaseUrl: string | null;
  /** SQLite's `synchronous` (SQLITE_SYNCHRONOUS): NORMAL survives a crash of the process, FULL also power loss. */
  sqliteSynchronous: SqliteSynchronous;
  /**
   * PostgreSQL: how long opening a connection, or waiting for a free one of the pool, may take
   * (DATABASE_CONNECT_TIMEOUT_MS); past it the request is answered 503.
   */
  databaseConnectTimeoutMs: number;
  /**
   * PostgreSQL: how long one statement may run (statement_timeout on the server) and wait for its answer (on a
   * stalled network only this ends it) (DATABASE_QUERY_TIMEOUT_MS); past it the request is answered 503.
   */
  databaseQueryTimeoutMs: number;
  /** SQLite: how long a statement waits for another connection's lock (SQLITE_BUSY_TIMEOUT_MS) before a 503. */
  sqliteBusyTimeoutMs: number;
  /**
   * UPGRADE_WITHOUT_BACKUP=1: PostgreSQL's schema is upgraded without a pg_dump younger than a day in
   * DATA_DIR/backups (server/db/upgrade.ts).
   */
  upgradeWithoutBackup: boolean;
  /** HS256 secret for access tokens; generated into dataDir on first start when unset. */
  jwtSecret: string | null;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  /** Absolute lifetime of a sign-in (refresh-token family), however often its token is rotated. */
  refreshTokenMaxAgeSec: number;
  uploadLimitBytes: number;
  /** The largest chat export POST /api/imports takes (IMPORT_MAX_BYTES, default 2 GiB; docs/behaviour.md §10.38). */
  importMaxBytes: number;
  /** Failed sign-ins of one username from one address within loginLockSec before that pair is locked. */
  loginMaxFailures: number;
  /** Failed sign-ins from one address, whatever the usernames, within loginLockSec before the address is locked. */
  loginMaxFailuresPerAddress: number;
  /**
   * Failed sign-ins on the whole server within a minute past which browsers without a device mark are slowed (a
   * growing delay up to 2.5 s); nobody is refused for it.
   */
  loginMaxFailuresGlobal: number;
  /** Failed sign-ins with one device mark within loginLockSec before that mark is locked. */
  loginMaxFailuresPerDevice: number;
  loginLockSec: number;
  codeSearchPerMinute: number;
  /** Message searches per user and minute (SEARCH_PER_MINUTE). */
  searchPerMinute: number;
  /** Secret chats' key-package claims per user and minute (SECRET_CLAIMS_PER_MINUTE). */
  secretClaimsPerMinute: number;
  redisUrl: string | null;
  /**
   * The name of this deployment's channels on Redis (REDIS_PREFIX, default `socket.io`): the processes of one
   * deployment share it; two deployments on one Redis need different ones, or each hears the other's events.
   */
  redisPrefix: string;
  livekit: { url: string | null; apiKey: string | null; apiSecret: string | null };
  sfu: {
    port: number;
    hostCandidates: string[] | null;
    /** UDP ports for media (SFU_UDP_PORTS="50000-50100"); null = any free port. */
    udpPortRange: [number, number] | null;
    /** URL clients use for the embedded SFU when it is behind a TLS proxy (SFU_PUBLIC_URL, e.g. wss://host/sfu). */
    publicUrl: string | null;
  };
  /** Directory of the built client to serve; null disables static serving. */
  clientDir: string | null;
  /** Whether the client's source maps are served (SERVE_SOURCE_MAPS=1); the build writes them for its own tools. */
  serveSourceMaps: boolean;
  /**
   * The reverse proxies whose X-Forwarded-For/-Host/-Proto are believed (TRUST_PROXY, comma-separated addresses,
   * CIDRs, or loopback/linklocal/uniquelocal); empty: none, the client is the connection's own address
   * (server/net/client-address.ts).
   */
  trustProxy: string[];
  /** Origins besides the app's own whose pages may open the websocket (ALLOWED_ORIGINS, comma-separated). */
  allowedOrigins: string[];
  logLevel: string;
  /** Users whose conversation list is kept serialized (CONVERSATION_LIST_CACHE; 0 turns it off). */
  conversationListCache: number;
  /** Web Push: VAPID keys (generated into dataDir/secrets.json when unset) and the contact the push services see. */
  vapid: { publicKey: string | null; privateKey: string | null; subject: string };
  /**
   * Push endpoints on loopback (http://127.0.0.1:…) accepted: tests only, never from the environment; otherwise
   * only https endpoints on public addresses are used.
   */
  pushAllowLoopback: boolean;
  /** Bearer token that opens GET /metrics to callers beyond this machine (METRICS_TOKEN); null: loopback only. */
  metricsToken: string | null;
  /** S3-compatible bucket for uploads and export archives (S3_BUCKET set); null keeps them under dataDir. */
  s3: S3Settings | null;
  /** Cards under the first link of a message (docs/behaviour.md §10.30 Link previews). */
  linkPreviews: LinkPreviewSettings;
  /**
   * Backups the server makes by itself (server/backups): BACKUP_SCHEDULE, a daily local time (default 03:30) or
   * off (null); BACKUP_KEEP, which of them are kept (default 7d,4w).
   */
  backup: { schedule: BackupSchedule | null; keep: KeepRule };
  /** The organisation's sign-in (OpenID Connect, server/auth/oidc): null when OIDC_ISSUER is unset. */
  oidc: OidcSettings | null;
}

/** Resolves a host name to its addresses (the system's resolver unless a test hands in its own). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface LinkPreviewSettings {
  /** LINK_PREVIEWS=off: the server fetches no link at all. */
  enabled: boolean;
  /**
   * Host names the address check lets through (LINK_PREVIEW_ALLOW_HOSTS, comma-separated): an intranet site the
   * operator wants cards for. Any other name or address on a private, loopback or link-local network is refused.
   */
  allowHosts: string[];
  /** The ports a link may name (LINK_PREVIEW_PORTS, default 80,443). */
  ports: number[];
  /** The limit on the whole fetch, redirects and picture included: 5 s; tests only set another. */
  timeoutMs: number;
  /** Tests only, never from the environment: a resolver of their own (null: the system's). */
  resolve: HostResolver | null;
}

export interface S3Settings {
  /** S3_ENDPOINT, e.g. http://127.0.0.1:9000; null means AWS's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID…, an instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Bucket in the path (http://host/bucket/key) rather than the host name: MinIO and most self-hosted stores. */
  forcePathStyle: boolean;
}

const int = (name: string, v: string | undefined, d: number): number => {
  if (v === undefined || v === '') return d;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0)
    throw new ConfigError(`Неверное значение ${name}: «${v}». Нужно целое неотрицательное число`);
  return Math.floor(n);
};
/** A timeout of 0 would mean "wait for ever" to pg: exactly what these settings are there to prevent. */
const positive = (name: string, n: number): number => {
  if (n < 1) throw new ConfigError(`${name} должно быть не меньше 1 (миллисекунды)`);
  return n;
};
const str = (v: string | undefined): string | null => (v === undefined || v.trim() === '' ? null : v.trim());

function redisPrefix(v: string | undefined): string {
  const prefix = str(v) ?? 'socket.io';
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(prefix))
    throw new ConfigError(
      `Неверное значение REDIS_PREFIX: «${prefix}». Нужны латинские буквы, цифры и знаки . _ : - (до 64 символов)`,
    );
  return prefix;
}

const portRange = (v: string | null): [number, number] | null => {
  if (!v) return null;
  const m = /^(\d+)-(\d+)$/.exec(v);
  const [lo, hi] = [Number(m?.[1]), Number(m?.[2])];
  if (!m || lo < 1024 || hi > 65535 || lo > hi)
    throw new ConfigError(
      `Неверное значение SFU_UDP_PORTS: «${v}». Укажите диапазон портов от 1024 до 65535, например 50000-50100`,
    );
  return [lo, hi];
};

/** "https://a.example, http://b.example:8080" → normalised origins (scheme://host[:port], no path). */
const originList = (v: string | null): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      try {
        return new URL(s).origin;
      } catch {
        throw new ConfigError(`Неверный адрес в ALLOWED_ORIGINS: «${s}». Нужен вид https://chat.example.org`);
      }
    });

const flag = (name: string, v: string | null, d: boolean): boolean => {
  if (v === null) return d;
  const s = v.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  throw new ConfigError(`Неверное значение ${name}: «${v}». Укажите on или off (также 1/0, true/false, yes/no)`);
};

function s3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = str(env.S3_BUCKET);
  const endpoint = str(env.S3_ENDPOINT);
  if (!bucket) {
    if (endpoint) throw new ConfigError('S3_ENDPOINT задан без S3_BUCKET: укажите и корзину');
    return null;
  }
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new ConfigError(`Неверное значение S3_ENDPOINT: «${endpoint}». Нужен вид http://127.0.0.1:9000`);
  }
  const accessKeyId = str(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = str(env.S3_SECRET_ACCESS_KEY);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('S3_ACCESS_KEY_ID и S3_SECRET_ACCESS_KEY задаются вместе: укажите оба или ни одного');
  }
  return {
    endpoint,
    bucket,
    region: str(env.S3_REGION) ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    // Self-hosted stores (an endpoint is given) mostly want path style; AWS itself wants the bucket in the host.
    forcePathStyle: flag('S3_FORCE_PATH_STYLE', str(env.S3_FORCE_PATH_STYLE), endpoint !== null),
  };
}

export type SqliteSynchronous = 'NORMAL' | 'FULL';

/** How the server gets its certificate: none (plain HTTP), ACME for PUBLIC_URL's host, or the operator's files. */
export type TlsSettings =
  | { mode: 'off' }
  | { mode: 'files'; certFile: string; keyFile: string; httpPort: number | null }
  | {
      mode: 'acme';
      /** The name the certificate is for: PUBLIC_URL's host. */
      domain: string;
      /** The CA's ACME directory (ACME_DIRECTORY). */
      directoryUrl: string;
      /** Contact the CA may write to about expiry (ACME_EMAIL); none when unset. */
      email: string | null;
      /** Plain HTTP: the CA's HTTP-01 challenges and a redirect to https (HTTP_PORT). */
      httpPort: number;
    };

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

function publicUrlSetting(v: string | null): string | null {
  if (!v) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`Неверное значение PUBLIC_URL: «${v}». Нужен вид https://chat.example.org`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`Неверное значение PUBLIC_URL: «${v}». Адрес должен начинаться с https:// или http://`);
  }
  return url.origin;
}

function tlsSettings(env: NodeJS.ProcessEnv, publicUrl: string | null): TlsSettings {
  const certFile = str(env.TLS_CERT);
  const keyFile = str(env.TLS_KEY);
  const httpPort = str(env.HTTP_PORT);
  if (Boolean(certFile) !== Boolean(keyFile))
    throw new ConfigError('TLS_CERT и TLS_KEY задаются вместе: укажите оба файла или ни одного');
  if (certFile && keyFile) {
    return {
      mode: 'files',
      certFile: path.resolve(certFile),
      keyFile: path.resolve(keyFile),
      httpPort: httpPort ? int('HTTP_PORT', httpPort, 80) : null,
    };
  }
  if (!publicUrl?.startsWith('https:')) return { mode: 'off' };
  return {
    mode: 'acme',
    domain: new URL(publicUrl).hostname,
    directoryUrl: str(env.ACME_DIRECTORY) ?? LETS_ENCRYPT_DIRECTORY,
    email: str(env.ACME_EMAIL),
    httpPort: int('HTTP_PORT', httpPort ?? undefined, 80),
  };
}

function linkPreviewSettings(env: NodeJS.ProcessEnv): LinkPreviewSettings {
  const list = (v: string | null) =>
    (v ?? '')
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean);
  const ports = list(str(env.LINK_PREVIEW_PORTS) ?? '80,443').map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      throw new ConfigError(`Неверный порт в LINK_PREVIEW_PORTS: «${p}». Нужны числа от 1 до 65535 через запятую`);
    return n;
  });
  return {
    enabled: flag('LINK_PREVIEWS', str(env.LINK_PREVIEWS), true),
    // A bracketed IPv6 literal is kept without its brackets, as URL.hostname minus them gives it.
    allowHosts: list(str(env.LINK_PREVIEW_ALLOW_HOSTS)).map((h) => h.replace(/^\[|\]$/g, '')),
    ports,
    timeoutMs: 5_000,
    resolve: null,
  };
}

/** TRUST_PROXY: "127.0.0.1, 10.0.0.0/8, fd00::/8, loopback" → its entries, each one checked. */
export function trustProxySetting(v: string | null): string[] {
  if (!v) return [];
  const entries = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const named = (PROXY_RANGE_NAMES as readonly string[]).includes(entry.toLowerCase());
    // Dotted IPv4 or an IPv6 literal, with an optional /prefix or /netmask (ipaddr.js alone also takes "1").
    let readable = named;
    if (!named && /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f.]*:[0-9a-f:.]*)(\/[0-9.]+)?$/i.test(entry)) {
      try {
        proxyTrust([entry]);
        readable = true;
      } catch {
        readable = false;
      }
    }
    if (!readable) {
      throw new ConfigError(
        `Неверное значение TRUST_PROXY: «${entry}». Укажите через запятую адреса или подсети обратного прокси ` +
          '(например 127.0.0.1, 10.0.0.0/8, fd00::/8) или loopback, linklocal, uniquelocal',
      );
    }
  }
  return entries.map((e) => ((PROXY_RANGE_NAMES as readonly string[]).includes(e.toLowerCase()) ? e.toLowerCase() : e));
}

export interface OidcSettings {
  /** OIDC_ISSUER: the provider's issuer URL, where /.well-known/openid-configuration is found. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_NAME: what the sign-in button says after «Войти через». */
  name: string;
}

function oidcSettings(env: NodeJS.ProcessEnv): OidcSettings | null {
  const issuer = str(env.OIDC_ISSUER);
  if (!issuer) return null;
  if (!/^https?:\/\//.test(issuer))
    throw new ConfigError(
      `Неверное значение OIDC_ISSUER: «${issuer}». Нужен адрес сервера входа вида https://sso.example.org/…`,
    );
  const clientId = str(env.OIDC_CLIENT_ID);
  const clientSecret = str(env.OIDC_CLIENT_SECRET);
  if (!clientId || !clientSecret)
    throw new ConfigError('OIDC_ISSUER задан без OIDC_CLIENT_ID и OIDC_CLIENT_SECRET: укажите оба');
  return { issuer, clientId, clientSecret, name: str(env.OIDC_NAME) ?? 'Корпоративный вход' };
}

const synchronousSetting = (v: string | null): SqliteSynchronous => {
  const s = (v ?? 'NORMAL').toUpperCase();
  if (s !== 'NORMAL' && s !== 'FULL')
    throw new ConfigError(`Неверное значение SQLITE_SYNCHRONOUS: «${v}». Укажите FULL или NORMAL`);
  return s;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const publicUrl = publicUrlSetting(str(env.PUBLIC_URL));
  const tls = tlsSettings(env, publicUrl);
  const config: Config = {
    // Serving TLS itself, the server takes HTTPS's own port unless told otherwise.
    port: int('PORT', env.PORT, tls.mode === 'off' ? 4000 : 443),
    host: env.HOST ?? '0.0.0.0',
    publicUrl,
    tls,
    dataDir,
    databaseUrl: str(env.DATABASE_URL),
    sqliteSynchronous: synchronousSetting(str(env.SQLITE_SYNCHRONOUS)),
    databaseConnectTimeoutMs: positive(
      'DATABASE_CONNECT_TIMEOUT_MS',
      int('DATABASE_CONNECT_TIMEOUT_MS', env.DATABASE_CONNECT_TIMEOUT_MS, 5_000),
    ),
    databaseQueryTimeoutMs: positive(
      'DATABASE_QUERY_TIMEOUT_MS',
      int('DATABASE_QUERY_TIMEOUT_MS', env.DATABASE_QUERY_TIMEOUT_MS, 30_000),
    ),
    sqliteBusyTimeoutMs: int('SQLITE_BUSY_TIMEOUT_MS', env.SQLITE_BUSY_TIMEOUT_MS, 5_000),
    upgradeWithoutBackup: flag('UPGRADE_WITHOUT_BACKUP', str(env.UPGRADE_WITHOUT_BACKUP), false),
    jwtSecret: str(env.JWT_SECRET),
    accessTokenTtlSec: int('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 15 * 60),
    refreshTokenTtlSec: int('REFRESH_TOKEN_TTL', env.REFRESH_TOKEN_TTL, 30 * 24 * 3600),
    refreshTokenMaxAgeSec: int('REFRESH_TOKEN_MAX_AGE', env.REFRESH_TOKEN_MAX_AGE, 90 * 24 * 3600),
    uploadLimitBytes: env.UPLOAD_LIMIT_MB
      ? int('UPLOAD_LIMIT_MB', env.UPLOAD_LIMIT_MB, 25) * 1024 * 1024
      : LIMITS.uploadDefaultBytes,
    importMaxBytes: int('IMPORT_MAX_BYTES', env.IMPORT_MAX_BYTES, 2 * 1024 ** 3),
    loginMaxFailures: int('LOGIN_MAX_FAILURES', env.LOGIN_MAX_FAILURES, 5),
    loginMaxFailuresPerAddress: int('LOGIN_MAX_FAILURES_PER_ADDRESS', env.LOGIN_MAX_FAILURES_PER_ADDRESS, 20),
    loginMaxFailuresGlobal: int('LOGIN_MAX_FAILURES_GLOBAL', env.LOGIN_MAX_FAILURES_GLOBAL, 300),
    loginMaxFailuresPerDevice: int('LOGIN_MAX_FAILURES_PER_DEVICE', env.LOGIN_MAX_FAILURES_PER_DEVICE, 10),
    loginLockSec: int('LOGIN_LOCK_SECONDS', env.LOGIN_LOCK_SECONDS, 15 * 60),
    codeSearchPerMinute: int('CODE_SEARCH_PER_MINUTE', env.CODE_SEARCH_PER_MINUTE, 20),
    searchPerMinute: int('SEARCH_PER_MINUTE', env.SEARCH_PER_MINUTE, 60),
    secretClaimsPerMinute: int('SECRET_CLAIMS_PER_MINUTE', env.SECRET_CLAIMS_PER_MINUTE, 30),
    redisUrl: str(env.REDIS_URL),
    redisPrefix: redisPrefix(env.REDIS_PREFIX),
    livekit: {
      url: str(env.LIVEKIT_URL),
      apiKey: str(env.LIVEKIT_API_KEY),
      apiSecret: str(env.LIVEKIT_API_SECRET),
    },
    sfu: {
      port: int('SFU_PORT', env.SFU_PORT, 7880),
      hostCandidates:
        str(env.SFU_HOST_CANDIDATES)
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean) ?? null,
      udpPortRange: portRange(str(env.SFU_UDP_PORTS)),
      publicUrl: str(env.SFU_PUBLIC_URL),
    },
    clientDir: env.CLIENT_DIR === '' ? null : path.resolve(env.CLIENT_DIR ?? './dist'),
    serveSourceMaps: ['1', 'true', 'yes'].includes((env.SERVE_SOURCE_MAPS ?? '').trim().toLowerCase()),
    trustProxy: trustProxySetting(str(env.TRUST_PROXY)),
    allowedOrigins: originList(str(env.ALLOWED_ORIGINS) ?? str(env.CORS_ORIGIN)),
    logLevel: env.LOG_LEVEL ?? 'info',
    conversationListCache: int('CONVERSATION_LIST_CACHE', env.CONVERSATION_LIST_CACHE, 10_000),
    vapid: {
      publicKey: str(env.VAPID_PUBLIC_KEY),
      privateKey: str(env.VAPID_PRIVATE_KEY),
      subject: str(env.VAPID_SUBJECT) ?? 'mailto:admin@localhost',
    },
    pushAllowLoopback: false,
    metricsToken: str(env.METRICS_TOKEN),
    s3: s3Settings(env),
    linkPreviews: linkPreviewSettings(env),
    backup: { schedule: parseSchedule(str(env.BACKUP_SCHEDULE)), keep: parseKeep(str(env.BACKUP_KEEP)) },
    oidc: oidcSettings(env),
    ...overrides,
  };
  if (config.livekit.url && !(config.livekit.apiKey && config.livekit.apiSecret)) {
    throw new ConfigError('LIVEKIT_URL задан без LIVEKIT_API_KEY и LIVEKIT_API_SECRET: укажите оба');
  }
  if (Boolean(config.vapid.publicKey) !== Boolean(config.vapid.privateKey)) {
    throw new ConfigError('VAPID_PUBLIC_KEY и VAPID_PRIVATE_KEY задаются вместе: укажите оба или ни одного');
  }
  if (!/^(mailto:|https:)/.test(config.vapid.subject))
    throw new ConfigError('VAPID_SUBJECT должен быть адресом mailto: или https:');
  return config;
}
