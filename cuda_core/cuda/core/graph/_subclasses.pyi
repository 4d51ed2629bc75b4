# placeholder: replaced by branch graphdef

__all__: list[str] = []
