MAX_MSG_LEN = 4096
cfg_path = "textparse.toml"
