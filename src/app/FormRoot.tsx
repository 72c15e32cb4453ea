import { NavLink, Outlet, useMatch } from 'react-router-dom';
import { partnerConfig } from '../config/partner';
import { COMPLETION_PATH, formSteps } from './paths';

/** The root of the form pages: header, step navigation, the page, footer. */
export function FormRoot() {
  // The completion page has no form header: only the logo line (spec/platform.md §2).
  const onCompletion = useMatch(COMPLETION_PATH) !== null;
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">
        <p className="site-header__title">{partnerConfig.applicationTitle}</p>
      </header>
      {!onCompletion && (
        <nav aria-label="Application steps" className="steps">
          <ol>
            {formSteps.map((step, index) => (
              <li key={step.path}>
                <NavLink to={step.path} className="steps__link">
                  <span className="steps__number">{index + 1}</span> {step.title}
                </NavLink>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <main id="main" tabIndex={-1} className="page">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <address>
        {partnerConfig.address.officeName}
        {partnerConfig.address.lines.map((line) => (
          <span key={line}>
            <br />
            {line}
          </span>
        ))}
        <br />
        <a href={`tel:${partnerConfig.phones.admissions.replace(/\D/g, '')}`}>{partnerConfig.phones.admissions}</a>
      </address>
    </footer>
  );
}
