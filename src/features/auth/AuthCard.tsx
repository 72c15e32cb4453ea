import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../lib/usePageTitle';
import type { Carry } from '../../lib/navState';

interface AuthCardProps {
  title: string;
  intro?: ReactNode;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
  /** The footer line to the neighbouring screen: a question and a link carrying the answers. */
  footer: { question: string; linkText: string; to: string; carry: Carry };
  notice?: ReactNode;
}

export function AuthCard({ title, intro, onSubmit, children, footer, notice }: AuthCardProps) {
  usePageTitle(title);
  return (
    <section className="card" aria-labelledby="card-title">
      <h1 id="card-title">{title}</h1>
      {notice}
      {intro && <p>{intro}</p>}
      <form noValidate onSubmit={onSubmit}>
        {children}
      </form>
      <p className="card__footer">
        {footer.question}{' '}
        <Link to={footer.to} state={{ carry: footer.carry }}>
          {footer.linkText}
        </Link>
      </p>
    </section>
  );
}
