import { hmac, sameHash } from './crypto';

/** What one upload may be: the exact object key, owner and content type, and its size limit. */
export interface UploadPolicy {
  key: string;
  owner: string;
  contentType: string;
  maxBytes: number;
  expiresInSeconds: number;
}

const ALGORITHM = 'PORTAL-HMAC-SHA256';
/** A key of its own for upload policies, derived from the server secret. */
const policyKey = (secret: string) => hmac(secret, 'upload-policy');

interface PolicyDocument {
  expiration: string;
  conditions: Array<Record<string, string> | ['content-length-range', number, number]>;
}

/**
 * The embedded storage's version of an S3 presigned POST: the same form fields (key, Content-Type,
 * policy, signature), the policy a base64 JSON document of conditions, signed with HMAC-SHA256.
 */
export function signLocalPolicy(policy: UploadPolicy, secret: string, now = new Date()): Record<string, string> & { key: string } {
  const fields = { key: policy.key, 'Content-Type': policy.contentType, 'x-amz-meta-owner': policy.owner };
  const document: PolicyDocument = {
    expiration: new Date(now.getTime() + policy.expiresInSeconds * 1000).toISOString(),
    conditions: [...Object.entries(fields).map(([name, value]) => ({ [name]: value })), ['content-length-range', 1, policy.maxBytes]],
  };
  const encoded = Buffer.from(JSON.stringify(document)).toString('base64');
  return {
    ...fields,
    policy: encoded,
    'x-amz-algorithm': ALGORITHM,
    'x-amz-date': now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, ''),
    'x-amz-signature': hmac(policyKey(secret), encoded),
  };
}

export type PolicyCheck = { ok: true; key: string; contentType: string; owner: string; maxBytes: number } | { ok: false; status: 403; message: string };

const refused = (message: string): PolicyCheck => ({ ok: false, status: 403, message });

/** Checks the posted fields against their signed policy, as S3 does before it accepts a file. */
export function verifyLocalPolicy(fields: Record<string, string>, secret: string, now = new Date()): PolicyCheck {
  const encoded = fields.policy ?? '';
  const signature = fields['x-amz-signature'] ?? '';
  if (fields['x-amz-algorithm'] !== ALGORITHM || !/^[0-9a-f]{64}$/.test(signature) || !sameHash(signature, hmac(policyKey(secret), encoded))) {
    return refused('The upload link is not valid. Please try uploading your file again.');
  }
  const document = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as PolicyDocument;
  if (Date.parse(document.expiration) < now.getTime()) return refused('The upload link has expired. Please try uploading your file again.');
  let maxBytes = 0;
  for (const condition of document.conditions) {
    if (Array.isArray(condition)) {
      maxBytes = condition[2];
      continue;
    }
    for (const [name, value] of Object.entries(condition)) {
      if (fields[name] !== value) return refused('The upload does not match its upload link. Please try uploading your file again.');
    }
  }
  return { ok: true, key: fields.key!, contentType: fields['Content-Type']!, owner: fields['x-amz-meta-owner']!, maxBytes };
}
