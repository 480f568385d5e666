import OperationsRunner

RunnerMain<Opctl>.runProcess()
