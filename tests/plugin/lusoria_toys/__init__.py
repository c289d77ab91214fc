"""A toy tafl game (`toytafl`) and a toy format of move lists (`moves`) for lusoria."""
