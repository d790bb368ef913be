// s3rver in its own process (tests/server/s3.ts starts it): it makes ListObjectsV2 continuation tokens with DES,
// which Node has only with --openssl-legacy-provider. Prints the port it listens on; stops on SIGTERM, or when the
// test process that started it is gone (its stdin closes).
import S3rver from 's3rver';

const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: process.argv[2], silent: true });
const { port } = await s3rver.run();
process.stdout.write(`${port}\n`);
const stop = () => s3rver.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.stdin.on('end', stop).resume();
