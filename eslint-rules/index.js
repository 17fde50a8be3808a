/** The house rules no published plugin keeps, as an ESLint plugin named `gatehouse`. */
import handlerLength from './handler-length.js';
import noCrossPackageImport from './no-cross-package-import.js';
import noForeignRepository from './no-foreign-repository.js';

export default {
  meta: { name: 'gatehouse' },
  rules: {
    'handler-length': handlerLength,
    'no-cross-package-import': noCrossPackageImport,
    'no-foreign-repository': noForeignRepository,
  },
};
