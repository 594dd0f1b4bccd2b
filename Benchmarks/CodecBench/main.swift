print("codec bench")
