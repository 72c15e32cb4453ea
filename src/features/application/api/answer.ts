import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

export type StudentAnswers = components['schemas']['StudentAnswers'];

/** PUT /api/answer: merges the sent answers into the stored ones ('' removes a key). `keepalive` lets it finish while the page closes. */
export const putAnswer = (body: StudentAnswers, keepalive = false) => dataOf(api.PUT('/api/answer', { body, ...(keepalive ? { keepalive: true } : {}) }));
