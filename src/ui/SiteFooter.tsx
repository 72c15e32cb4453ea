import { memo, useState } from 'react';
import { partnerConfig } from '../../domain/config';
import { Modal } from './Modal';

/** The office's address and phone, as the partner configuration gives them. */
function PartnerAddress() {
  const { address, phones } = partnerConfig;
  return (
    <address>
      {address.officeName}
      {address.lines.map((line) => (
        <span key={line}>
          <br />
          {line}
        </span>
      ))}
      <br />
      <a href={`tel:${phones.admissions.replace(/\D/g, '')}`}>{phones.admissions}</a>
    </address>
  );
}

/** The footer: address lines, the Help modal and the Privacy modal (spec/form.md §2). Memoised: it has no props, and a layout drawn again on each key typed need not draw it. */
export const SiteFooter = memo(function SiteFooter() {
  const [open, setOpen] = useState<null | 'help' | 'privacy'>(null);
  const { phones, helpEmail, links } = partnerConfig;
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <PartnerAddress />
        <ul className="site-footer__links">
          <li>
            <button type="button" className="button button--text" onClick={() => setOpen('help')}>
              Help
            </button>
          </li>
          <li>
            <button type="button" className="button button--text" onClick={() => setOpen('privacy')}>
              Privacy
            </button>
          </li>
        </ul>
      </div>
      <Modal open={open === 'help'} onClose={() => setOpen(null)} header="Help" size="m">
        <h3>Technical Help</h3>
        <p>
          For help with the application website, e-mail <a href={`mailto:${helpEmail}`}>{helpEmail}</a> or call {phones.technicalHelp}.
        </p>
        <p>
          To open the PDF copy of your application you need a PDF reader, such as <a href={links.adobeReader}>Adobe Acrobat Reader</a>.
        </p>
        <h3>Contact Us</h3>
        <PartnerAddress />
      </Modal>
      <Modal open={open === 'privacy'} onClose={() => setOpen(null)} header="Privacy" size="m">
        <h3>Privacy Policy</h3>
        <p>
          {partnerConfig.name} uses what you enter only to consider your application. Read the full <a href={links.privacyPolicy}>privacy policy</a>.
        </p>
        <h3>Cookie Notice</h3>
        <p>This site uses two cookies, both needed for it to work:</p>
        <ul>
          <li>
            <strong>portal_session</strong> keeps you signed in. It cannot be read by scripts and ends after 15 minutes without activity.
          </li>
          <li>
            <strong>portal-idp.session</strong> tells the page that you are signed in. It holds nothing about you.
          </li>
        </ul>
        <p>
          You can remove cookies in your browser settings: <a href="https://support.google.com/chrome/answer/95647">Chrome</a>,{' '}
          <a href="https://support.mozilla.org/kb/clear-cookies-and-site-data-firefox">Firefox</a>,{' '}
          <a href="https://support.apple.com/guide/safari/manage-cookies-sfri11471/mac">Safari</a>,{' '}
          <a href="https://support.microsoft.com/microsoft-edge/delete-cookies-in-microsoft-edge-63947406-40ac-c3b8-57b9-2a946a29ae09">Edge</a>.
        </p>
      </Modal>
    </footer>
  );
});
