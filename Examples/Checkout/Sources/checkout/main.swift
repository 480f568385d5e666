import OperationsRunner

RunnerMain<CheckoutProgram>.runProcess()
