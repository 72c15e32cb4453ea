import { describe, expect, it } from 'vitest';
import { catalogue } from '../catalogue';
import { instanceHasAnswers, removeInstance } from './repeatedGroups';

const siblings = catalogue.find((group) => group.repeat?.buttonId === 'add_sibling')!;

describe('removing a group added by mistake (issue 28)', () => {
  const answers = {
    sibling_first_name: 'Ann',
    sibling_2_first_name: 'Ben',
    sibling_2_relationship: 'B',
    sibling_2_relationship_desc: 'Brother',
    sibling_3_first_name: 'Cat',
    sibling_3_age: '9',
  };

  it('moves the later groups up one and clears the last', () => {
    const update = removeInstance(siblings, 2, 3, answers);
    expect(update).toMatchObject({ sibling_2_first_name: 'Cat', sibling_2_age: '9', sibling_2_relationship: '', sibling_2_relationship_desc: '', sibling_3_first_name: '', sibling_3_age: '' });
    expect(Object.keys(update).every((key) => key.startsWith('sibling_2_') || key.startsWith('sibling_3_'))).toBe(true);
  });

  it('removing the last group clears only its answers', () => {
    const update = removeInstance(siblings, 3, 3, answers);
    expect(Object.values(update).every((value) => value === '')).toBe(true);
    expect(update).toHaveProperty('sibling_3_first_name', '');
    expect(update).not.toHaveProperty('sibling_2_first_name');
  });

  it('knows whether a group holds answers', () => {
    expect(instanceHasAnswers(siblings, 2, answers)).toBe(true);
    expect(instanceHasAnswers(siblings, 4, answers)).toBe(false);
  });
});
