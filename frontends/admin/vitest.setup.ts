import '@testing-library/jest-dom/vitest';
import { setUpSpaTests } from '@gatehouse/frontend-shared/testing';
import { configure } from '@testing-library/react';

// The console's first render under jsdom (antd, lazy routes) can take over a second on a cold
// transform cache; a page that has not appeared within 5 s is a failure.
configure({ asyncUtilTimeout: 5000 });

setUpSpaTests({ width: 1280 });
