import type { ButtonHTMLAttributes } from 'react';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'text';
  /** While true the button shows a spinner, is announced busy and ignores clicks. */
  loading?: boolean;
}

export function Button({ variant = 'primary', loading = false, type = 'button', className, children, onClick, ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={['button', `button--${variant}`, className].filter(Boolean).join(' ')}
      // aria-disabled rather than disabled while loading, so focus stays on the button.
      aria-disabled={loading || rest['aria-disabled'] || undefined}
      aria-busy={loading || undefined}
      onClick={(event) => {
        if (loading) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {loading && <span className="spinner" aria-hidden="true" />}
      {children}
      {loading && <span className="visually-hidden"> (loading)</span>}
    </button>
  );
}
