import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ERROR_TOAST_MS, SUCCESS_TOAST_MS } from '../../domain/config';

export type Severity = 'success' | 'error';

export interface ToastInput {
  severity: Severity;
  /** The heading, e.g. 'Success Notification' or 'Login Card Error'. */
  label: string;
  message: string;
}

interface ToastItem extends ToastInput {
  id: number;
}

/** spec/platform.md §9: success closes after 5 s, error after 300000 ms. */
export const toastDuration: Record<Severity, number> = { success: SUCCESS_TOAST_MS, error: ERROR_TOAST_MS };
export const SUCCESS_TOAST_LABEL = 'Success Notification';

interface ToastApi {
  /** Shows a toast and returns its id, for a screen that closes its own toasts when it goes. */
  showToast: (toast: ToastInput) => number;
  dismissToast: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}

/** A screen's own toasts (an auth card's errors): closed when the screen goes, not carried onto the next. */
export function useScreenToasts(): (toast: ToastInput) => number {
  const { showToast, dismissToast } = useToast();
  const shown = useRef(new Set<number>());
  useEffect(() => {
    const ids = shown.current;
    return () => ids.forEach(dismissToast);
  }, [dismissToast]);
  return useCallback(
    (toast: ToastInput) => {
      const id = showToast(toast);
      shown.current.add(id);
      return id;
    },
    [showToast],
  );
}

/**
 * Holds the toasts and one polite live region that is always in the page, so a toast added later
 * is announced (a region inserted together with its text is often not read).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismissToast = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const showToast = useCallback((toast: ToastInput) => {
    const id = nextId.current++;
    // One success at a time (the newest): three stacked after sign-up covered half a phone (issue 28).
    const replaced = (t: ToastItem) => (t.label === toast.label && t.message === toast.message) || (toast.severity === 'success' && t.severity === 'success');
    setToasts((list) => [...list.filter((t) => !replaced(t)), { ...toast, id }]);
    return id;
  }, []);
  const api = useMemo(() => ({ showToast, dismissToast }), [showToast, dismissToast]);

  // Toasts never cover the field in use: they sit at the bottom, or at the top when the field is
  // where they would be (issue 28).
  const region = useRef<HTMLDivElement>(null);
  const [atTop, setAtTop] = useState(false);
  const placeAwayFromFocus = useCallback(() => {
    const field = document.activeElement;
    const toastsHeight = region.current?.getBoundingClientRect().height ?? 0;
    if (!field || !field.matches('input, textarea, select') || toastsHeight === 0) return setAtTop(false);
    const viewport = window.visualViewport?.height ?? window.innerHeight;
    // 16 px: the region's own distance from the edge (styles.css).
    setAtTop(field.getBoundingClientRect().bottom > viewport - toastsHeight - 16);
  }, []);
  useLayoutEffect(placeAwayFromFocus, [toasts, placeAwayFromFocus]);
  useEffect(() => {
    document.addEventListener('focusin', placeAwayFromFocus);
    return () => document.removeEventListener('focusin', placeAwayFromFocus);
  }, [placeAwayFromFocus]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div ref={region} className={`toasts${atTop ? ' toasts--top' : ''}`} role="status" aria-live="polite" aria-atomic="false">
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onClose={dismissToast} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function Toast({ toast, onClose }: { toast: ToastItem; onClose: (id: number) => void }) {
  // Each toast's time counts from its own appearance: another toast coming or going restarts nothing.
  const { id, severity } = toast;
  useEffect(() => {
    const timer = setTimeout(() => onClose(id), toastDuration[severity]);
    return () => clearTimeout(timer);
  }, [id, severity, onClose]);

  return (
    <div className={`toast toast--${toast.severity}`} data-severity={toast.severity}>
      <div>
        <p className="toast__label">{toast.label}</p>
        <p className="toast__message">{toast.message}</p>
      </div>
      <button type="button" className="icon-button" aria-label={`Close ${toast.label}`} onClick={() => onClose(id)}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
