/** @jsxRuntime automatic @jsxImportSource react */
// The pragma: the server loads this file through tsx, whose tsconfig (the tools') does not cover views/.
/**
 * A decision letter as the applicant reads it, on the status page and in its PDF (issue 30): the
 * text the office's template made, a paragraph at each blank line, its line breaks kept.
 */
export function DecisionLetter({ letter, label, className }: { letter: string; label: string; className?: string }) {
  return (
    <article aria-label={label} className={className}>
      {letter.split(/\n{2,}/).map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </article>
  );
}
