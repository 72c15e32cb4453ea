import { usePageTitle } from './usePageTitle';

/** Stands in for a screen that a later piece of work builds; it names the screen and what it is for. */
export function PlaceholderPage({ title, purpose }: { title: string; purpose: string }) {
  usePageTitle(title);
  return (
    <>
      <h1>{title}</h1>
      <p>{purpose}</p>
    </>
  );
}
