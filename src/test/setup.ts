import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import './misplacedElements';

afterEach(() => cleanup());
