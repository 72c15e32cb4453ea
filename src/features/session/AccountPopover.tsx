import { Fragment, memo, useState } from 'react';
import { Link } from 'react-router-dom';
import { carryOf, type StudentAnswers } from '../../lib/navState';
import { authPaths } from '../../lib/paths';
import { Button } from '../../ui/Button';
import { Popover } from '../../ui/Popover';

interface AccountPopoverProps {
  loggedIn: boolean;
  username: string | null;
  answers: StudentAnswers;
  onLogout: () => Promise<void>;
}

/** An e-mail address that wraps, when it must, after its '@' or a dot: never in the middle of a word. */
function breakableEmail(email: string) {
  return email.split(/(?<=[@.])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/**
 * The account popover (spec/platform.md §2): titled 'Account' with a close button; logged in it
 * shows the username in lower case and Log Out, logged out Sign In and Create Account carrying
 * the answers.
 */
/** Memoised: the form's layout draws it again only when what it shows changes. */
export const AccountPopover = memo(function AccountPopover({ loggedIn, username, answers, onLogout }: AccountPopoverProps) {
  const [loggingOut, setLoggingOut] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  if (failure) throw failure; // logout failures go to the error boundary (spec/platform.md §7)

  return (
    <Popover title="Account">
      {loggedIn ? (
        <>
          <p className="account__user">
            <span aria-hidden="true">✉</span> <span className="visually-hidden">Signed in as </span>
            {breakableEmail(username?.toLowerCase() ?? '')}
          </p>
          <Button
            loading={loggingOut}
            onClick={() => {
              setLoggingOut(true);
              onLogout().catch((error: unknown) => setFailure(error));
            }}
          >
            Log Out
          </Button>
        </>
      ) : (
        <div className="account__actions">
          <Link className="button button--primary" to={authPaths.login} state={{ carry: carryOf(answers) }}>
            Sign In
          </Link>
          <Link className="button button--secondary" to={authPaths.signup} state={{ carry: carryOf(answers) }}>
            Create Account
          </Link>
        </div>
      )}
    </Popover>
  );
});
