import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { CopyObjectCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { Config } from './config';
import { signLocalPolicy, type UploadPolicy } from './uploadPolicy';

interface PresignedPost {
  url: string;
  fields: Record<string, string> & { key: string };
}

/** Where uploaded files and PDFs live: a folder under DATA_DIR, or an S3-compatible bucket. */
export interface Storage {
  kind: 'local' | 's3';
  presignPost(policy: UploadPolicy): Promise<PresignedPost>;
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Removes every object under a folder (`prefix` ends in `/`): an erased applicant's uploads, finished or not. */
  deleteFolder(prefix: string): Promise<void>;
  /** Stores a file from disk without reading it into memory (an export's file, issue 32). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** Gives an object its final name; the old one is gone once this returns. No `from` (moved already): nothing to do. */
  move(from: string, to: string): Promise<void>;
  /** The object as a stream, or null when there is none. */
  stream(key: string): Promise<Readable | null>;
}

/** Object keys are made by the server; anything else (`..`, absolute paths) is refused. */
const safeKey = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

function assertSafeKey(key: string): void {
  if (!safeKey.test(key) || key.split('/').some((part) => part === '.' || part === '..')) throw new Error(`unsafe storage key: ${key}`);
}

export function createStorage(config: Pick<Config, 's3' | 'dataDir' | 'publicUrl' | 'sessionSecret'>): Storage {
  return config.s3 ? s3Storage(config.s3) : localStorage(path.join(config.dataDir, 'files'), `${config.publicUrl}/upload`, config.sessionSecret);
}

function localStorage(root: string, uploadUrl: string, secret: string): Storage {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    kind: 'local',
    presignPost: async (policy) => ({ url: uploadUrl, fields: signLocalPolicy(policy, secret) }),
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body);
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async deleteFolder(prefix) {
      await rm(fileOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    async putFile(key, file) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Copied beside the target, then renamed: the target is whole or absent.
      await copyFile(file, `${target}.copying`);
      await rename(`${target}.copying`, target);
    },
    async move(from, to) {
      const target = fileOf(to);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(fileOf(from), target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    async stream(key) {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return createReadStream(file);
    },
  };
}

function s3Storage(s3: NonNullable<Config['s3']>): Storage {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint ?? undefined,
    // Self-hosted S3-compatible stores (MinIO, Ceph) usually need path-style addresses.
    forcePathStyle: Boolean(s3.endpoint),
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  return {
    kind: 's3',
    async presignPost(policy) {
      const { url, fields } = await createPresignedPost(client, {
        Bucket: s3.bucket,
        Key: policy.key,
        Conditions: [
          ['content-length-range', 1, policy.maxBytes],
          ['eq', '$Content-Type', policy.contentType],
          ['eq', '$x-amz-meta-owner', policy.owner],
        ],
        Fields: { 'Content-Type': policy.contentType, 'x-amz-meta-owner': policy.owner },
        Expires: policy.expiresInSeconds,
      });
      return { url, fields: { ...fields, key: policy.key } };
    },
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    },
    async deleteFolder(prefix) {
      assertSafeKey(prefix.replace(/\/$/, ''));
      // A page of at most 1,000 keys at a time, each page deleted in one call, until none is left.
      for (;;) {
        const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length === 0) return;
        await client.send(new DeleteObjectsCommand({ Bucket: s3.bucket, Delete: { Objects: keys, Quiet: true } }));
      }
    },
    async putFile(key, file, contentType) {
      // One PUT of a known length (S3 takes up to 5 GB so); an object appears whole or not at all.
      const { size } = await stat(file);
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: contentType }));
    },
    async move(from, to) {
      try {
        await client.send(new CopyObjectCommand({ Bucket: s3.bucket, Key: to, CopySource: `${s3.bucket}/${from}` /* keys are server-made, [A-Za-z0-9_./-] only: nothing to encode */ }));
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return;
        throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: from }));
    },
    async stream(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        return object.Body as Readable;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
  };
}
