print("opctl")
