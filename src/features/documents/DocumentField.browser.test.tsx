import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { fieldByKey } from '../../../domain/catalogue';
import { axeViolations } from '../../test/axe';
import { ToastProvider } from '../../ui/Toast';
import { DocumentField } from './DocumentField';

describe('DocumentField', () => {
  it('asks a visitor to create an account first, without an axe violation', async () => {
    const screen = await render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <main>
            <h1>Documents</h1>
            <DocumentField field={fieldByKey.get('additional_info_doc')!} loggedIn={false} onChange={() => {}} />
          </main>
        </ToastProvider>
      </QueryClientProvider>,
    );
    await expect.element(screen.getByText('This question can be finished once you have created an account.')).toBeVisible();
    expect(await axeViolations()).toEqual([]);
  });
});
