import { memo } from 'react';
import { Link } from 'react-router-dom';
import type { ClientSnapshot } from './formState';
import { partnerConfig } from '../../../domain/config';
import { carryOf, type StudentAnswers } from '../../lib/navState';

const bannerTexts = {
  submittedBlurb: 'Congratulations on completing the online portion of your application!',
  firstLogin: "You're in! Now, let's get started on your application!",
  welcomeBack: 'Welcome back!',
  anonymous: 'Hello!',
} as const;

/** spec/form.md §2: shown when submitted, or not logged in, or logged in before changing page; never while validating. */
export function bannerShows(snapshot: ClientSnapshot): boolean {
  if (snapshot.web_status === 'validating') return false;
  return snapshot.web_status === 'submitted' || !snapshot.is_logged_in || !snapshot.has_changed_page;
}

export function Banner({ snapshot, answers }: { snapshot: ClientSnapshot; answers: StudentAnswers }) {
  if (!bannerShows(snapshot)) return null;
  if (snapshot.web_status === 'submitted') {
    const name = String(answers.preferred_name || answers.first_name || '').trim();
    return (
      <section className="banner" aria-labelledby="banner-title">
        <h2 id="banner-title" className="banner__title">{`Thanks${name ? `, ${name}` : ''}!`}</h2>
        <p>{bannerTexts.submittedBlurb}</p>
      </section>
    );
  }
  if (!snapshot.is_logged_in) {
    return (
      <section className="banner" aria-labelledby="banner-title">
        <h2 id="banner-title" className="banner__title">
          {bannerTexts.anonymous}
        </h2>
        <p>
          Start your application below. Your answers are saved once you create an account or <Link to="/login" state={{ carry: carryOf(answers) }}>sign in</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="banner" aria-labelledby="banner-title">
      <h2 id="banner-title" className="banner__title">
        {snapshot.num_logins <= 1 ? bannerTexts.firstLogin : bannerTexts.welcomeBack}
      </h2>
    </section>
  );
}

/**
 * The date banner shows only between the partner's start and end dates. Memoised: the page around
 * it is drawn again on each key typed, the date it reads is the page's opening day.
 */
export const DateBanner = memo(function DateBanner({ now = new Date() }: { now?: Date }) {
  const { start, end, text } = partnerConfig.dateBanner;
  const today = now.toISOString().slice(0, 10);
  if (today < start || today > end) return null;
  return <p className="date-banner">{text}</p>;
});
