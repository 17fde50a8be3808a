import { startTestFileAfresh } from '@gatehouse/frontend-shared/testing';
import '@testing-library/jest-dom/vitest';
import { setUpSpaTests } from '@gatehouse/frontend-shared/testing';

startTestFileAfresh();
setUpSpaTests({ width: 1024 });
