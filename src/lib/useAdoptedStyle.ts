import { useEffect } from 'react';
import { usePhoneLibrary } from './phoneLibrary';

/**
 * A stylesheet built at run time, adopted by the document while the component is shown: the
 * page's CSP allows no inline <style> (style-src 'self'), and a constructed stylesheet is no
 * inline style.
 */
function useAdoptedStyle(css: string): void {
  useEffect(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    };
  }, [css]);
}

/**
 * The printed application in a browser as the PDF copy prints it (issue 48): its page header and
 * "Page N of M" (`pageCss`, views' printedPageStyle), and phones from abroad grouped as their
 * country writes them (`phonesFromAbroad`: the numbering plans are loaded).
 */
export function usePrintedDocument(pageCss: string, phonesFromAbroad: boolean): void {
  useAdoptedStyle(pageCss);
  usePhoneLibrary(phonesFromAbroad);
}
