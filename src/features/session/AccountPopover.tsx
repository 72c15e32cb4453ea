import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { StudentAnswers } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { authPaths } from '../../lib/paths';

interface AccountPopoverProps {
  loggedIn: boolean;
  username: string | null;
  answers: StudentAnswers;
  onLogout: () => Promise<void>;
}

/**
 * The account popover (spec/platform.md §2): titled 'Account' with a close button; logged in it
 * shows the username in lower case and Log Out, logged out Sign In and Create Account carrying
 * the answers. A disclosure: Escape or Close shuts it and returns focus to its button.
 */
export function AccountPopover({ loggedIn, username, answers, onLogout }: AccountPopoverProps) {
  const [open, setOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const titleId = useId();
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  if (failure) throw failure; // logout failures go to the error boundary (spec/platform.md §7)

  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <div className="account">
      <button
        ref={toggle}
        type="button"
        className="account__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Account
      </button>
      <div
        ref={panel}
        id={panelId}
        role="dialog"
        aria-labelledby={titleId}
        tabIndex={-1}
        hidden={!open}
        className="account__panel"
        onKeyDown={(event) => {
          if (event.key === 'Escape') close();
        }}
      >
        <div className="account__header">
          <h2 id={titleId} className="account__title">
            Account
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {loggedIn ? (
          <>
            <p className="account__user">
              <span aria-hidden="true">✉</span> <span className="visually-hidden">Signed in as </span>
              {username?.toLowerCase()}
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
            <Link className="button button--primary" to={authPaths.login} state={{ answers }}>
              Sign In
            </Link>
            <Link className="button button--secondary" to={authPaths.signup} state={{ answers }}>
              Create Account
            </Link>
          </div>
        )}
      </div>
    </div>
  );
}
