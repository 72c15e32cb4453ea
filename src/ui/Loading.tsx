type LoadingType = 'spinner' | 'circles';

interface LoadingProps {
  type?: LoadingType;
  /** What is loading, for screen readers. */
  label?: string;
  fullScreen?: boolean;
}

/** A loading indicator that screen readers announce once, politely. */
export function Loading({ type = 'spinner', label = 'Loading', fullScreen = false }: LoadingProps) {
  return (
    <div role="status" className={fullScreen ? 'loading loading--fullscreen' : 'loading'}>
      {type === 'spinner' ? (
        <span className="spinner" aria-hidden="true" />
      ) : (
        <span className="circles" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
      )}
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
