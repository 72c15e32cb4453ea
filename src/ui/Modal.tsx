import { useEffect, useId, useRef, type ReactNode } from 'react';
import { TitleBar } from './TitleBar';

export type ModalSize = 'xs' | 's' | 'm';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** spec/platform.md §2: the header defaults to 'Error'. */
  header?: string;
  size?: ModalSize;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * A modal on the native <dialog>: showModal() makes the page behind inert (so focus cannot leave
 * the dialog to the page), Escape closes it, and focus returns to what had it before.
 */
export function Modal({ open, onClose, header = 'Error', size = 's', children, footer }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // Return focus when the dialog closes or unmounts while open.
  useEffect(() => {
    if (!open) return;
    return () => {
      const target = returnFocusTo.current;
      if (target?.isConnected) target.focus();
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`modal modal--${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <TitleBar id={titleId} title={header} block="modal" onClose={onClose} />
          <div className="modal__body">{children}</div>
          {footer && <div className="modal__footer">{footer}</div>}
        </>
      )}
    </dialog>
  );
}

/** spec/platform.md §2: unexpected errors show a modal titled 'Unexpected Error'. */
export function UnexpectedErrorModal({ open, onClose, message }: { open: boolean; onClose: () => void; message: string }) {
  return (
    <Modal open={open} onClose={onClose} header="Unexpected Error" size="s">
      <p>{message}</p>
    </Modal>
  );
}
