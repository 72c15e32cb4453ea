import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router-dom';
import { vi } from 'vitest';
import type { PageId } from '../../../../domain/catalogue/types';
import { pages } from '../../../../domain/catalogue/pages';
import type { StudentAnswers } from '../../../lib/navState';
import { createQueryClient } from '../../../lib/queryClient';
import { ToastProvider } from '../../../ui/Toast';
import { FieldSlotsContext, type FieldSlots } from '../fieldSlots';
import { FormPage } from '../FormPage';
import { ApplicationProvider } from '../useApplication';

/** One PUT /api/answer as the fake server received it. */
interface ReceivedSave {
  body: StudentAnswers;
  base: string | null;
}

/**
 * The applicant's calls answered in the page, as the real server answers them for one account
 * (the merge of PUT /api/answer: '' removes; the revision moves), for a component test of the form
 * that asserts what was stored. The real server's own rules are its tests' (server/application);
 * `lookups` answers /lookup/find; `boundAnswers`, the answers the profile says are bound.
 */
export function fakeApplicantServer({ answers = {}, lookups, boundAnswers = [] }: { answers?: StudentAnswers; lookups?: (query: URLSearchParams) => unknown; /** Profile `bound_answers`. */ boundAnswers?: string[] } = {}) {
  const server = { answers: { ...answers } as StudentAnswers, revision: 0, saves: [] as ReceivedSave[] };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const call = `${request.method} ${url.pathname}`;
      if (call === 'GET /api/profile') {
        return json(200, {
          application_id: '00000000-0000-4000-8000-000000000001',
          username: 'jordan@example.com',
          last_page: null,
          answer: server.answers,
          answers_revision: server.revision,
          document_answer: {},
          successful_login: [{ timestamp: '2026-11-01T10:00:00Z' }],
          web_status: [{ web_status: 'started' }],
          bound_answers: boundAnswers,
        });
      }
      if (call === 'PUT /api/answer') {
        const body = (await request.json()) as StudentAnswers;
        server.saves.push({ body, base: request.headers.get('X-Answers-Base') });
        const merged = { ...server.answers, ...body };
        for (const [key, value] of Object.entries(body)) if (value === '' || value === null) delete merged[key];
        server.answers = merged;
        server.revision += 1;
        return json(200, { message: 'Your answers were saved.', revision: server.revision });
      }
      if (call === 'GET /api/add-another') return json(200, {});
      if (call === 'GET /lookup/find') return json(200, lookups?.(url.searchParams) ?? []);
      // The last page, the status, the validations: acknowledged.
      return json(200, { message: 'OK' });
    }),
  );
  return server;
}

/** The slots another feature fills in the app (documents, tabs): here the tab group shows its first tab's questions. */
const slots: FieldSlots = {
  DocumentField: () => null,
  TabGroup: ({ group, children }) => <>{children(group.tabs[0]?.keys ?? [])}</>,
  useChosenTab: () => null,
};

function Root() {
  return (
    <ApplicationProvider loggedIn>
      <FieldSlotsContext.Provider value={slots}>
        <main>
          <Outlet />
        </main>
      </FieldSlotsContext.Provider>
    </ApplicationProvider>
  );
}

/**
 * A signed-in applicant's form as the app draws it, from `page`: the real provider, answers store,
 * groups and fields, over `fakeApplicantServer` (set it up first). The step buttons lead to the
 * other pages; `children` is drawn beside the form.
 */
export function FormHarness({ page, children }: { page: PageId; children?: ReactNode }) {
  const [queryClient] = useState(() => createQueryClient());
  const path = pages.find((step) => step.id === page)!.path;
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route element={<Root />}>
              {pages.map((step) => (
                <Route key={step.id} path={step.path} element={<FormPage page={step.id} />} />
              ))}
            </Route>
          </Routes>
        </MemoryRouter>
        {children}
      </ToastProvider>
    </QueryClientProvider>
  );
}
