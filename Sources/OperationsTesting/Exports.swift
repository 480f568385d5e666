// The explorer and the test scheduler live in OperationsExplorer, which a runner program may
// link without the test helpers; a test target that imports OperationsTesting gets them too.
@_exported public import OperationsExplorer
