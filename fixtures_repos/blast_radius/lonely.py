def unused():
    return 1
