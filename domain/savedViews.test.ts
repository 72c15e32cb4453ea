import { describe, expect, it } from 'vitest';
import { savedViewMessages } from './savedViews';

describe('a saved view of the list (issue 51 §1)', () => {
  it('says each refusal as written', () => {
    expect(savedViewMessages).toEqual({
      nameTaken: 'You already have a view of this name: choose another name, or change that view.',
      notYours: 'Only the member who saved this view can change it; save it as a view of your own.',
      notFound: 'We could not find that view: it may have been removed. Reload the page.',
      nameRequired: 'Name the view.',
    });
  });
});
