class Jar(dict):
    def shake(self):
        return sorted(self)
