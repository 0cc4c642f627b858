def main():
    return "fast"
