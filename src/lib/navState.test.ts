import { afterEach, describe, expect, it } from 'vitest';
import { carriedAnswers, clearPendingAnswers, keepPendingAnswers, readPendingAnswers } from './navState';
import { isLoggedIn } from './identity';

afterEach(() => sessionStorage.clear());

describe('answers carried before an account exists', () => {
  it('are kept in sessionStorage, merged, and survive a reload of the page', () => {
    keepPendingAnswers({ first_name: 'Jordan' });
    keepPendingAnswers({ last_name: 'Rivera' });
    keepPendingAnswers({});
    expect(readPendingAnswers()).toEqual({ first_name: 'Jordan', last_name: 'Rivera' });
  });

  it('navigation state wins over the stored copy', () => {
    keepPendingAnswers({ first_name: 'Old', city: 'Denver' });
    expect(carriedAnswers({ answers: { first_name: 'New' } })).toEqual({ first_name: 'New', city: 'Denver' });
  });

  it('are cleared once saved, and a broken copy reads as none', () => {
    keepPendingAnswers({ first_name: 'Jordan' });
    clearPendingAnswers();
    expect(readPendingAnswers()).toEqual({});
    sessionStorage.setItem('portal.pendingAnswers', '{not json');
    expect(readPendingAnswers()).toEqual({});
  });
});

describe('isLoggedIn', () => {
  it('is true only with a cookie named with the identity-provider prefix', () => {
    expect(isLoggedIn('')).toBe(false);
    expect(isLoggedIn('other=1; portal_session_like=2')).toBe(false);
    expect(isLoggedIn('a=1; portal-idp.session=1')).toBe(true);
  });
});
