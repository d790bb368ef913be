// Uploads and export archives in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage…), so several server
// processes need no shared volume. Objects are `<prefix><key>`; one bucket can hold uploads/ and exports/ side by
// side. Writes stream through lib-storage's Upload: a body under one part (8 MiB) is a single PutObject sent only
// once the whole body has arrived, a larger one a multipart upload that becomes visible only when completed — so a
// write that fails (size limit, client gone) never leaves an object behind.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../config';
import type { UploadStorage } from './storage';

/** Part size of multipart writes; one part's bytes are held in memory per write in progress. */
const PART_BYTES = 8 * 1024 * 1024;

export function s3Client(s3: S3Settings): S3Client {
  return new S3Client({
    region: s3.region,
    endpoint: s3.endpoint ?? undefined,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
    // Checksums only where S3 demands them: many S3-compatible stores reject the newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A stalled store fails the request instead of holding an upload open for ever.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    maxAttempts: 3,
  });
}

const missing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404);

/** `listPage`: keys asked for per ListObjectsV2 request (S3's own maximum is 1,000). */
export function s3Storage(client: S3Client, bucket: string, prefix: string, listPage = 1000): UploadStorage {
  const objectKey = (key: string) => `${prefix}${key}`;
  return {
    async write(key, source) {
      const upload = new Upload({
        client,
        // lib-storage knows only node:stream's Readable; archiver's ZIP stream is readable-stream's.
        params: {
          Bucket: bucket,
          Key: objectKey(key),
          Body: source instanceof Readable ? source : Readable.from(source),
        },
        partSize: PART_BYTES,
        queueSize: 1,
        leavePartsOnError: false,
      });
      // The body's own error (size limit, client gone) is what the caller needs to see, not a failed abort's.
      let bodyError: unknown = null;
      source.once('error', (err) => {
        bodyError = err;
      });
      try {
        await upload.done();
      } catch (err) {
        source.destroy();
        if (bodyError) throw bodyError;
        // The store's refusal is this server's fault, never the client's (the upload route tells them apart by code).
        const failed = new Error(`S3 write of ${objectKey(key)} failed: ${(err as Error).message}`, { cause: err });
        throw Object.assign(failed, { code: 'S3_WRITE_FAILED' });
      }
    },
    async read(key, range) {
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: objectKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        return res.Body instanceof Readable ? res.Body : null;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async remove(key) {
      // Deleting an absent object succeeds in S3, as rm --force does on disk.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    async *keys() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: listPage }),
        );
        for (const o of page.Contents ?? []) {
          const name = o.Key?.slice(prefix.length);
          // Only this prefix's own level: a deeper name is not one of ours.
          if (name && !name.includes('/')) yield name;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

/**
 * Start-up check: the bucket exists and this process may write, read and delete in it. Throws an error naming the
 * bucket and the endpoint, so a missing bucket or wrong credentials stop the server before it takes a request.
 */
export async function checkBucket(client: S3Client, s3: S3Settings): Promise<void> {
  const where = `S3 bucket "${s3.bucket}" at ${s3.endpoint ?? `AWS (${s3.region})`}`;
  const fail = (what: string, err: unknown): never => {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    const reason =
      status === 404 || e.name === 'NoSuchBucket' || e.name === 'NotFound'
        ? 'the bucket does not exist (create it first)'
        : status === 403
          ? 'access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)'
          : `${e.name ?? 'error'}: ${e.message ?? String(err)}`;
    throw new Error(`${where}: ${what} failed: ${reason}`, { cause: err });
  };
  await client.send(new HeadBucketCommand({ Bucket: s3.bucket })).catch((err) => fail('HeadBucket', err));
  // Outside uploads/ and exports/, so a probe left by a crash is never taken for an upload.
  const key = `probe/${randomBytes(8).toString('hex')}`;
  const body = `probe ${Date.now()}`;
  await client
    .send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentLength: Buffer.byteLength(body) }))
    .catch((err) => fail('writing a probe object', err));
  try {
    const res = await client
      .send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))
      .catch((err) => fail('reading the probe object back', err));
    const got = await res.Body?.transformToString();
    if (got !== body) throw new Error(`${where}: the probe object read back differs from what was written`);
  } finally {
    await client
      .send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }))
      .catch((err) => fail('deleting the probe object', err));
  }
}
