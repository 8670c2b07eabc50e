print("opsview")
