import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FloorForm } from './FloorForm';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <FloorForm initial={{}} />
  </StrictMode>,
);
