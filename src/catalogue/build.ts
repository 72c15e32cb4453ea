import type { Rule } from '../form/conditions';
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

/** Small builders so each catalogue entry reads as one line. */
export const text = field('text');
export const textarea = field('textarea');
export const date = field('date');
export const checkbox = field('checkbox');
export const phone = field('phone');
export const email = field('email');
export const documentField = field('document');
export const lookup = field('lookup');
export const select = choice('select');
export const radio = choice('radio');

export const when = (valueKey: string, operator: Rule['operator'], target?: Rule['target']): Rule => ({ valueKey, operator, target });
export const equals = (valueKey: string, target: string) => when(valueKey, 'equals', target);
