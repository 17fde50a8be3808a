import '@testing-library/jest-dom/vitest';
import { setUpSpaTests } from '@gatehouse/frontend-shared/testing';
import { configure } from '@testing-library/react';
import { vi } from 'vitest';

// The console's first render under jsdom (antd, lazy routes) can take over a second on a cold
// transform cache; a page that has not appeared within 5 s is a failure.
configure({ asyncUtilTimeout: 5000 });

setUpSpaTests({ width: 1280 });

// No test connects to a real notification hub: the console's socket is a fake that tests drive.
vi.mock('socket.io-client', () => import('./src/features/notifications/testing/fake-socket-io'));
