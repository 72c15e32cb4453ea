/** The title of a modal or popover with its close button ('Close', spec/platform.md §2). `block` is the CSS block name. */
export function TitleBar({ id, title, block, onClose }: { id: string; title: string; block: 'modal' | 'account'; onClose: () => void }) {
  return (
    <div className={`${block}__header`}>
      <h2 id={id} className={`${block}__title`}>
        {title}
      </h2>
      <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
