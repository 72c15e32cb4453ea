import { answerMessages } from '../messages';
import type { Rule } from '../rules/conditions';
import { EMAIL_PATTERN, isInternationalPhone, isUsOrInternationalPhone, looksAbroad, PHONE_PATTERN } from '../rules/formats';
import type { Option } from './options';
import type { FieldDef, InputType } from './types';

type Extra = Partial<Omit<FieldDef, 'key' | 'label' | 'type'>>;
const field = (type: InputType) => (key: string, label: string, extra: Extra = {}): FieldDef => ({ key, label, type, ...extra });
const choice = (type: 'select' | 'radio') => (key: string, label: string, options: Option[], extra: Extra = {}): FieldDef => ({
  key,
  label,
  type,
  options,
  ...extra,
});
/** A field whose given answer must match a pattern; `formatMessage` replaces the type's own message. */
const formatted =
  (type: 'phone' | 'email', pattern: { test(value: string): boolean }, message: (label: string) => string) =>
  (key: string, label: string, { formatMessage, ...extra }: Extra & { formatMessage?: string } = {}): FieldDef => ({
    key,
    label,
    type,
    format: { pattern, message: formatMessage ?? message(label) },
    ...extra,
  });

/** Small builders so each catalogue entry reads as one line. */
export const text = field('text');
export const textarea = field('textarea');
export const date = field('date');
export const checkbox = field('checkbox');
/** A US phone (the spec's pattern): a number from abroad typed there points to International Phone (issue 48). */
export const phone = (key: string, label: string, extra: Extra & { formatMessage?: string } = {}): FieldDef => {
  const def = formatted('phone', PHONE_PATTERN, answerMessages.phone)(key, label, extra);
  return { ...def, format: { ...def.format!, abroad: { test: looksAbroad, message: answerMessages.phoneAbroad } } };
};
/**
 * A parent's or counselor's phone: a US number, or one abroad kept in E.164 (issue 28); more
 * digits than a US number without '+' are asked for their country code (issue 48).
 */
export const phoneHereOrAbroad = (key: string, label: string, extra: Extra & { formatMessage?: string } = {}): FieldDef => {
  const def = formatted('phone', { test: isUsOrInternationalPhone }, answerMessages.phone)(key, label, extra);
  const needsCountry = (value: string) => !value.startsWith('+') && looksAbroad(value);
  return { ...def, format: { ...def.format!, abroad: { test: needsCountry, message: answerMessages.phoneNeedsCountry(def.format!.message) } } };
};
/** A number from abroad, with '+' and its country code, checked as the other phones (issue 48). */
export const internationalPhone = formatted('phone', { test: isInternationalPhone }, () => answerMessages.internationalPhone);
export const email = formatted('email', EMAIL_PATTERN, answerMessages.email);
export const documentField = field('document');
export const lookup = field('lookup');
export const select = choice('select');
export const radio = choice('radio');

export const when = (valueKey: string, operator: Rule['operator'], target?: Rule['target']): Rule => ({ valueKey, operator, target });
export const equals = (valueKey: string, target: string) => when(valueKey, 'equals', target);
export const answered = (valueKey: string) => when(valueKey, 'answered');
export const notAnswered = (valueKey: string) => when(valueKey, 'notAnswered');
