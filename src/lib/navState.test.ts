import { afterEach, describe, expect, it } from 'vitest';
import { answersToFill, carryOf, dropDrafts, endCarries, forgetAnswersOfOthers, keepCarry, keepDrafts, readDrafts, validCarry } from './navState';
import { isLoggedIn } from './identity';

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('carried answers', () => {
  it('are kept in the tab: a screen without them in its navigation state (Back, a reload) still has them', () => {
    keepCarry(carryOf({ first_name: 'Jordan' }));
    expect(validCarry({})?.answers).toEqual({ first_name: 'Jordan' });
  });

  it('navigation state wins over the stored copy of the same owner', () => {
    keepCarry(carryOf({ first_name: 'Old', city: 'Denver' }));
    expect(validCarry({ carry: carryOf({ first_name: 'New' }) })?.answers).toEqual({ first_name: 'New', city: 'Denver' });
  });

  it('a logout voids every copy: the stored one and the ones left in browser history', () => {
    const inHistory = carryOf({ first_name: 'Jordan' }, 'a@example.com', { first_name: '' });
    keepCarry(inHistory);
    forgetAnswersOfOthers(null);
    expect(validCarry({ carry: inHistory })).toBeNull();
    expect(validCarry({})).toBeNull();
  });

  it("a sign-in by another account voids that account's carry; its own and a visitor's stay", () => {
    keepCarry(carryOf({ first_name: 'Jordan' }, 'a@example.com'));
    forgetAnswersOfOthers('A@example.com');
    expect(validCarry({})?.owner).toBe('a@example.com');
    forgetAnswersOfOthers('b@example.com');
    expect(validCarry({})).toBeNull();
    keepCarry(carryOf({ first_name: 'Visitor' }));
    forgetAnswersOfOthers('b@example.com');
    expect(validCarry({})?.answers).toEqual({ first_name: 'Visitor' });
  });

  it('a finished carry voids its copies, and a broken stored copy reads as none', () => {
    const carry = carryOf({ first_name: 'Jordan' });
    keepCarry(carry);
    endCarries();
    expect(validCarry({ carry })).toBeNull();
    sessionStorage.setItem('portal.carry', '{not json');
    expect(validCarry({})).toBeNull();
  });
});

describe('drafts kept in the browser', () => {
  it('belong to one account: another reads none, and its sign-in removes them', () => {
    keepDrafts({ owner: 'A@example.com', answers: { essay: 'draft' }, base: { essay: '' } });
    expect(readDrafts('a@example.com')?.answers).toEqual({ essay: 'draft' });
    expect(readDrafts('b@example.com')).toBeNull();
    forgetAnswersOfOthers('b@example.com');
    expect(readDrafts('a@example.com')).toBeNull();
  });

  const draftKeys = () => Object.keys(localStorage).filter((key) => key.startsWith('portal.drafts'));
  /** Runs `keep` as another tab of this browser (its own sessionStorage), then comes back. */
  const inAnotherTab = (tab: string, keep: () => void) => {
    const mine = sessionStorage.getItem('portal.tab');
    sessionStorage.setItem('portal.tab', tab);
    keep();
    if (mine) sessionStorage.setItem('portal.tab', mine);
  };

  it('nothing unsaved removes them', () => {
    keepDrafts({ owner: 'a@example.com', answers: { essay: 'draft' }, base: {} });
    expect(draftKeys()).toHaveLength(1);
    keepDrafts({ owner: 'a@example.com', answers: {}, base: {} });
    expect(draftKeys()).toEqual([]);
  });

  it("are each tab's own: a tab still open keeps its drafts from the others, a closed tab's are taken up, merged, this tab's last (issue 48)", () => {
    keepDrafts({ owner: 'a@example.com', answers: { city: 'Mine' }, base: { city: '' } });
    inAnotherTab('open-tab', () => keepDrafts({ owner: 'a@example.com', answers: { first_name: 'Open' }, base: {} }));
    inAnotherTab('closed-tab', () => keepDrafts({ owner: 'a@example.com', answers: { city: 'Closed', middle_name: 'Lee' }, base: { city: '' }, sent: { city: ['Clo'] } }, { closed: true }));
    const drafts = readDrafts('a@example.com')!;
    expect(drafts.answers).toEqual({ city: 'Mine', middle_name: 'Lee' });
    expect(drafts.sent).toEqual({ city: ['Clo'] });
    expect(drafts.from).toEqual(['portal.drafts.closed-tab', expect.stringMatching(/^portal\.drafts\./)]);
    dropDrafts(drafts.from);
    expect(draftKeys().sort()).toEqual([drafts.from[1], 'portal.drafts.open-tab'].sort());
  });

  it("an older page's drafts (one key for the browser) are taken up as a closed tab's", () => {
    localStorage.setItem('portal.drafts', JSON.stringify({ owner: 'a@example.com', answers: { city: 'X' }, base: {} }));
    expect(readDrafts('a@example.com')).toMatchObject({ answers: { city: 'X' }, sent: {}, from: ['portal.drafts'] });
  });

  it('a sign-out removes every draft, a broken one too', () => {
    keepDrafts({ owner: 'a@example.com', answers: { city: 'Mine' }, base: {} });
    localStorage.setItem('portal.drafts.broken', '{not json');
    forgetAnswersOfOthers(null);
    expect(draftKeys()).toEqual([]);
  });
});

describe('answersToFill', () => {
  it('fills a key only while the account holds what it held when it was typed', () => {
    const saved = { first_name: 'Newer', last_name: 'Rivera', city: '' };
    const carried = { answers: { first_name: 'Older', last_name: 'Rivas', city: 'Denver' }, base: { first_name: 'Jordan', last_name: 'Rivera' } };
    expect(answersToFill(saved, carried)).toEqual({ fill: { last_name: 'Rivas', city: 'Denver' }, kept: ['first_name'] });
  });

  it('fills a key the account holds as this browser sent it since: a save on its way as the page closed (issue 48)', () => {
    const saved = { city: 'Boulder', first_name: 'Other device' };
    const carried = { answers: { city: 'Boulder Creek', first_name: 'Mine' }, base: { city: 'Denver', first_name: 'Ann' }, sent: { city: ['Boulder'], first_name: ['Mi'] } };
    expect(answersToFill(saved, carried)).toEqual({ fill: { city: 'Boulder Creek' }, kept: ['first_name'] });
  });

  it("a visitor's answers fill only what the account has not answered", () => {
    expect(answersToFill({ first_name: 'Saved' }, { answers: { first_name: 'Typed', city: 'Denver' }, base: {} })).toEqual({
      fill: { city: 'Denver' },
      kept: ['first_name'],
    });
  });
});

describe('isLoggedIn', () => {
  it('is true only with a cookie named with the identity-provider prefix', () => {
    expect(isLoggedIn('')).toBe(false);
    expect(isLoggedIn('other=1; portal_session_like=2')).toBe(false);
    expect(isLoggedIn('a=1; portal-idp.session=1')).toBe(true);
  });
});
