/**
 * The /login floor of `npm run bench` (issue 14): what any sign-in page on this stack needs, and no
 * more: React, the declarative router, TanStack Query and openapi-fetch (the floor also
 * loads yup on first submit; the portal has no yup, so neither has its floor).
 * Built by the bench from the portal's own package versions.
 */
import { StrictMode, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import createClient from 'openapi-fetch';
import type { paths } from '../../../generated/api';

const api = createClient<paths>({ baseUrl: '' });

function SignIn() {
  const [problem, setProblem] = useState('');
  const signIn = useMutation({
    mutationFn: async (body: { username: string; password: string }) => {
      const { error } = await api.POST('/public/login', { body });
      if (error) throw new Error(error.message);
    },
    onError: (error) => setProblem(error.message),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget)) as { username: string; password: string };
    if (!/^[^@\s]+@[^@\s]+$/.test(data.username)) setProblem('Enter a valid email address.');
    else if (!data.password) setProblem('Enter your password.');
    else signIn.mutate(data);
  }
  return (
    <main>
      <h1>Sign in to your application</h1>
      <p>Use the email address and password of your account.</p>
      <form onSubmit={submit} noValidate>
        <label>
          Email address <input name="username" type="email" autoComplete="username" />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" />
        </label>
        {problem && <p role="alert">{problem}</p>}
        <button type="submit">Sign in</button>
      </form>
      <Link to="/signup">Create an account</Link>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <BrowserRouter>
        <Routes>
          <Route path="*" element={<SignIn />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
