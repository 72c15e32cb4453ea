import { accountApi } from './api/account';
import type { WebStatus } from './formState';
import type { StudentAnswers } from '../../lib/navState';
import { validateApplication } from '../../../domain/rules/application';

/**
 * What Back, Save & Continue and the step links do before the next page opens (spec/platform.md
 * §2, spec/form.md §2): post the answers, then, while validating, a non-empty validation result.
 */
export async function saveBeforeLeavingPage(answers: StudentAnswers, status: WebStatus | null): Promise<void> {
  await accountApi.putAnswer(answers);
  const result = status === 'validating' ? validateApplication(answers) : {};
  if (Object.keys(result).length > 0) await accountApi.postValidations(result);
}
