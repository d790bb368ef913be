// An S3-compatible store for tests: s3rver on loopback on a free port, keeping objects in a temporary directory,
// with one bucket made. With TEST_S3=1 the harness gives every test server its own (docs/administration.md
// «S3 storage»); s3-storage.test.ts always starts one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { S3Settings } from '../../server/config';
import { s3Client } from '../../server/uploads/s3-storage';

export const usingS3 = () => ['1', 'true', 'yes'].includes((process.env.TEST_S3 ?? '').toLowerCase());

export interface TestS3 {
  /** Settings for a server (s3rver accepts any signature; its default key pair is used). */
  settings: S3Settings;
  /** Every object key in the bucket. */
  objects(): Promise<string[]>;
  /** An object's bytes, straight from the store. */
  object(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'beseda-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-s3-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', path.join(__dirname, 's3rver-process.mjs'), directory],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (line: Buffer) => resolve(Number(line.toString().trim())));
    child.once('exit', (code) => reject(new Error(`s3rver stopped before listening (exit ${code})`)));
  });
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const client = s3Client(settings);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    settings,
    async objects() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async object(key) {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
    },
    async close() {
      client.destroy();
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(directory, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}
